// fuzz_offline_reader: the bytes as an offline file (common/offline_file.h),
// read as `schedrig import` reads one: the header, then every record until
// the end or the first error (std::runtime_error, which import reports),
// each decoded as an Envelope (format version 1 or 2, as the header says).
#include <sstream>
#include <stdexcept>
#include <string>

#include "common/envelope_codec.h"
#include "common/offline_file.h"
#include "fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const std::uint8_t version = schedrig::read_offline_header(in);
    while (std::optional<schedrig::OfflineRecord> record =
               schedrig::read_offline_record(in, version)) {
      schedrig::fuzz::require(record->payload.size() <= schedrig::kMaxEnvelopeBytes,
                              "a record is at most kMaxEnvelopeBytes");
      (void)schedrig::decode_envelope(record->payload);
    }
  } catch (const std::runtime_error&) {
    // A bad file: import names it and stops.
  }
  return 0;
}
