#include "host/report/format.h"

#include <cmath>
#include <ctime>

#include <fmt/format.h>

namespace schedrig::report {
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

std::string format_utc(long long ns) {
  if (ns == 0) return "-";
  std::time_t seconds = static_cast<std::time_t>(ns / 1000000000LL);
  if (ns < 0 && ns % 1000000000LL != 0) --seconds;  // floor, not truncate
  std::tm tm{};
  if (!gmtime_r(&seconds, &tm)) return "-";
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string format_labels(const std::map<std::string, std::string>& labels) {
  std::string out;
  for (const auto& [k, v] : labels) {
    if (!out.empty()) out += ',';
    out += k + "=" + v;
  }
  return out;
}

}  // namespace schedrig::report
