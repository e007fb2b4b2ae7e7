#include "host/report/html/html_text.h"

#include <cmath>

#include <fmt/format.h>

namespace schedrig::report::html {

std::string html_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default: {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t' && c != '\n') || u == 0x7f) {
          out += fmt::format("\\x{:02x}", u);
        } else {
          out += c;
        }
      }
    }
  }
  return out;
}

std::string svg_number(double v) {
  if (!std::isfinite(v)) return "0";
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

}  // namespace schedrig::report::html
