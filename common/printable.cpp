#include "common/printable.h"

#include <fmt/format.h>

namespace schedrig {
namespace {

// The escape of one C0 control byte or DEL.
std::string escape_byte(unsigned char c) {
  switch (c) {
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case 0x1b:
      return "\\e";
    default:
      return fmt::format("\\x{:02x}", c);
  }
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool c1 = c == 0xc2 && i + 1 < text.size() &&
                    static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9f;
    if (c1) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[++i]));
    } else if (c < 0x20 || c == 0x7f) {
      out += escape_byte(c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace schedrig
