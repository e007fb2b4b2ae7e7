// Little-endian fields of the spool's own headers and ack records
// (docs/architecture.md "Spool"): fixed-width integers and strings with a
// 16-bit length, written to a string and read back with bounds checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace schedrig::spool {

// Appends the low `width` bytes of `v`, least significant first.
inline void put_le(std::string& out, std::uint64_t v, int width) {
  for (int i = 0; i < width; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}

// Appends `s` (at most 65535 bytes; the caller checks) after its 16-bit length.
inline void put_short_string(std::string& out, std::string_view s) {
  put_le(out, s.size(), 2);
  out.append(s);
}

// Reads fields from the front of `bytes`; every take fails (false) rather
// than read past the end.
class LeReader {
 public:
  explicit LeReader(std::string_view bytes) : bytes_(bytes) {}

  // The next `width` bytes (1..8) as an integer.
  bool take(int width, std::uint64_t& v);
  // A 16-bit length, then that many bytes.
  bool take_short_string(std::string& s);
  bool done() const { return bytes_.empty(); }

 private:
  std::string_view bytes_;
};

}  // namespace schedrig::spool
