#include "host/report/format.h"

#include <ctime>

#include <fmt/format.h>

namespace schedrig::report {

std::string format_utc(long long ns) {
  if (ns == 0) return "-";
  std::time_t seconds = static_cast<std::time_t>(ns / 1000000000LL);
  if (ns < 0 && ns % 1000000000LL != 0) --seconds;  // floor, not truncate
  std::tm tm{};
  if (!gmtime_r(&seconds, &tm)) return "-";
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string format_utc_ms(long long ns) {
  std::string out = format_utc(ns);
  if (out == "-") return out;
  const long long ms = (ns % 1000000000LL + 1000000000LL) % 1000000000LL / 1000000LL;
  out.insert(out.size() - 1, fmt::format(".{:03}", ms));
  return out;
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
