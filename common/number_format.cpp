#include "common/number_format.h"

#include <cmath>

#include <fmt/format.h>

namespace schedrig {
namespace {

// A whole number with a comma every three digits: -1234567 -> "-1,234,567".
std::string grouped(double v) {
  std::string digits = fmt::format("{:.0f}", std::fabs(std::round(v)));
  std::string out;
  std::size_t lead = digits.size() % 3;
  if (lead == 0) lead = 3;
  out.append(digits, 0, lead);
  for (std::size_t i = lead; i < digits.size(); i += 3) {
    out += ',';
    out.append(digits, i, 3);
  }
  return (v < 0 ? "-" : "") + out;
}

}  // namespace

std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  // 999.5 and up would print as "1e+03" with three significant digits.
  if (std::fabs(v) >= 999.5) return grouped(v);
  if (v == 0) return "0";
  return fmt::format("{:.3g}", v);
}

}  // namespace schedrig
