#include "host/report/format.h"

#include <cmath>
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

std::string dash_if_empty(const std::string& s) { return s.empty() ? "-" : s; }

std::string csv_number(double v) { return std::isfinite(v) ? fmt::format("{}", v) : ""; }

std::string wrap_words(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::size_t start = 0;
  const auto flush = [&] {
    out += line;
    line.clear();
  };
  while (start <= text.size()) {
    std::size_t end = text.find_first_of(" \n", start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const bool first = line.empty() || line == indent;
    if (!first && line.size() + 1 + word.size() > width) {
      flush();
      out += '\n';
      line = indent;
    }
    line += (line.empty() || line == indent) ? word : " " + word;
    if (end < text.size() && text[end] == '\n') {
      flush();
      out += '\n';
    }
    start = end + 1;
  }
  flush();
  return out;
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
