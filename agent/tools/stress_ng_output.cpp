#include "agent/tools/stress_ng_output.h"

#include <algorithm>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "agent/tools/tool_error.h"
#include "agent/tools/tool_text.h"

namespace schedrig::tools {
namespace {

using workloads::Direction;
using workloads::Metric;

// "stress-ng: metrc: [PID] rest" or "stress-ng: info:  [PID] rest" -> rest.
struct Line {
  std::string level;  // "metrc", "info", "fail", "warn", ...
  std::string rest;
};

std::optional<Line> split_line(const std::string& line) {
  static const std::regex re(R"(^stress-ng: ([a-z]+):\s*\[[0-9]+\] ?(.*)$)");
  std::smatch m;
  if (!std::regex_match(line, m, re)) return std::nullopt;
  return Line{m[1].str(), m[2].str()};
}

// A metrics row: stressor name, then 6 to 8 numbers.
bool read_row(const std::string& rest, std::vector<Metric>& out) {
  std::istringstream in(rest);
  std::string name;
  if (!(in >> name) || name == "stressor") return false;
  std::replace(name.begin(), name.end(), '-', '_');  // sem-sysv -> sem_sysv_bogo_ops
  std::vector<double> v;
  std::string word;
  while (in >> word) {
    if (word.find_first_not_of("0123456789.") != std::string::npos) return false;
    v.push_back(to_double(word));
  }
  if (v.size() < 6 || v.size() > 8) return false;
  using D = Direction;
  const auto add = [&](const char* what, double value, const char* unit, D d) {
    out.push_back({fmt::format("{}_{}", name, what), value, unit, d});
  };
  add("bogo_ops", v[0], "ops", D::kHigherIsBetter);
  add("bogo_ops_per_s", v[4], "ops/s", D::kHigherIsBetter);
  add("bogo_ops_per_cpu_s", v[5], "ops/s", D::kHigherIsBetter);
  add("real_time_s", v[1], "s", D::kLowerIsBetter);
  add("usr_time_s", v[2], "s", D::kLowerIsBetter);
  add("sys_time_s", v[3], "s", D::kLowerIsBetter);
  if (v.size() > 6) add("cpu_used_pct", v[6], "%", D::kLowerIsBetter);
  if (v.size() > 7) add("rss_max_kib", v[7], "KiB", D::kLowerIsBetter);
  return true;
}

// Why the run does not count, from one line, or "".
std::string failure_of(const Line& l) {
  static const std::regex summary(R"(^(failed|metrics untrustworthy): ([0-9]+))");
  std::smatch m;
  if (l.level == "fail") return l.rest;
  if (l.rest.find("metrics corrupted") != std::string::npos) return l.rest;
  if (std::regex_search(l.rest, m, summary) && m[2].str() != "0") return l.rest;
  return "";
}

}  // namespace

std::vector<Metric> parse_stress_ng_output(const std::string& output) {
  std::vector<Metric> rows;
  std::vector<std::string> failures;
  for_each_line(output, [&](const std::string& text) {
    const std::optional<Line> l = split_line(text);
    if (!l) return;
    if (std::string why = failure_of(*l); !why.empty()) {
      failures.push_back(std::move(why));
    } else if (l->level == "metrc" || l->level == "info") {
      read_row(l->rest, rows);
    }
  });
  if (!failures.empty()) {
    std::string said;
    for (const std::string& f : failures) said += (said.empty() ? "" : "; ") + f;
    throw ToolRunError("stress-ng: the run failed: " + quote_tail(said));
  }
  if (rows.empty()) {
    throw ToolRunError("stress-ng: no metrics row in its output (was --metrics-brief given?): " +
                       quote_tail(output));
  }
  std::vector<Metric> out{{"bogo_ops_per_s", rows[1].value, "ops/s", Direction::kHigherIsBetter}};
  out.insert(out.end(), rows.begin(), rows.end());
  return out;
}

}  // namespace schedrig::tools
