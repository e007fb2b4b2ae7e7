#include "agent/spool/le_bytes.h"

namespace schedrig::spool {

bool LeReader::take(int width, std::uint64_t& v) {
  const auto n = static_cast<std::size_t>(width);
  if (bytes_.size() < n) return false;
  v = 0;
  for (std::size_t i = 0; i < n; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes_[i])) << (8 * i);
  bytes_.remove_prefix(n);
  return true;
}

bool LeReader::take_short_string(std::string& s) {
  std::uint64_t length = 0;
  if (!take(2, length) || bytes_.size() < length) return false;
  s.assign(bytes_.substr(0, length));
  bytes_.remove_prefix(length);
  return true;
}

}  // namespace schedrig::spool
