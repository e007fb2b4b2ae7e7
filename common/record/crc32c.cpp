#include "common/record/crc32c.h"

#include <boost/crc.hpp>

namespace schedrig::record {
namespace {

using Castagnoli = boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true>;

}  // namespace

std::uint32_t crc32c(std::string_view bytes) { return crc32c({}, bytes); }

std::uint32_t crc32c(std::string_view prefix, std::string_view bytes) {
  Castagnoli crc;
  crc.process_bytes(prefix.data(), prefix.size());
  crc.process_bytes(bytes.data(), bytes.size());
  return crc.checksum();
}

}  // namespace schedrig::record
