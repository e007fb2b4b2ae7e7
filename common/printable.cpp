#include "common/printable.h"

#include <cstdint>
#include <optional>

#include <fmt/format.h>

namespace schedrig {
namespace {

// The escape of one C0 control byte, DEL, a backslash or a stray byte.
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
    case '\\':
      return "\\\\";
    default:
      return fmt::format("\\x{:02x}", c);
  }
}

// A code point that moves or hides text on a terminal: C1, bidi, format,
// line and paragraph separators, interlinear annotation, tag characters.
bool invisible_control(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) ||
         (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2069) || cp == 0xfeff ||
         (cp >= 0xfff9 && cp <= 0xfffb) || (cp >= 0xe0000 && cp <= 0xe007f);
}

struct CodePoint {
  std::uint32_t value;
  std::size_t length;  // bytes, 2..4
};

bool continuation(unsigned char c) { return (c & 0xc0) == 0x80; }

// The well-formed multi-byte sequence at text[i] (RFC 3629 table 3-7), or
// nullopt: a lead byte alone, overlong, a surrogate or above U+10FFFF.
std::optional<CodePoint> decode(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  std::size_t length = 0;
  std::uint32_t value = 0;
  std::uint32_t min = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2, value = lead & 0x1fu, min = 0x80;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3, value = lead & 0x0fu, min = 0x800;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4, value = lead & 0x07u, min = 0x10000;
  } else {
    return std::nullopt;
  }
  if (i + length > text.size()) return std::nullopt;
  for (std::size_t k = 1; k < length; ++k) {
    const auto c = static_cast<unsigned char>(text[i + k]);
    if (!continuation(c)) return std::nullopt;
    value = (value << 6) | (c & 0x3fu);
  }
  if (value < min || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
    return std::nullopt;
  }
  return CodePoint{value, length};
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      const bool plain = c >= 0x20 && c != 0x7f && c != '\\';
      out += plain ? std::string(1, static_cast<char>(c)) : escape_byte(c);
      ++i;
      continue;
    }
    const std::optional<CodePoint> cp = decode(text, i);
    if (!cp) {
      out += escape_byte(c);
      ++i;
    } else if (invisible_control(cp->value)) {
      out += cp->value > 0xffff ? fmt::format("\\U{:08x}", cp->value)
                                : fmt::format("\\u{:04x}", cp->value);
      i += cp->length;
    } else {
      out.append(text.substr(i, cp->length));
      i += cp->length;
    }
  }
  return out;
}

bool well_formed_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::optional<CodePoint> cp = decode(text, i);
    if (!cp) return false;
    i += cp->length;
  }
  return true;
}

}  // namespace schedrig
