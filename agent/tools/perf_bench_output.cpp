#include "agent/tools/perf_bench_output.h"

#include <regex>
#include <sstream>

#include "agent/tools/tool_error.h"
#include "agent/tools/tool_text.h"

namespace schedrig::tools {

std::vector<workloads::Metric> parse_perf_bench_output(const std::string& output) {
  using D = workloads::Direction;
  static const std::regex per_op(R"(^\s*([0-9.]+) usecs/op)");
  static const std::regex per_s(R"(^\s*([0-9.]+) ops/sec)");
  static const std::regex processes(R"(== ([0-9]+) processes run)");
  std::optional<double> total_s, usecs_per_op, ops_per_s, n_processes;
  for_each_line(output, [&](const std::string& line) {
    std::smatch m;
    if (auto t = number_after(line, "Total time: ")) total_s = t;
    if (std::regex_search(line, m, per_op)) usecs_per_op = to_double(m[1].str());
    if (std::regex_search(line, m, per_s)) ops_per_s = to_double(m[1].str());
    if (std::regex_search(line, m, processes)) n_processes = to_double(m[1].str());
  });
  if (!total_s) {
    throw ToolRunError("perf bench: no 'Total time:' line in its output: " + quote_tail(output));
  }
  std::vector<workloads::Metric> out;
  if (ops_per_s) out.push_back({"ops_per_s", *ops_per_s, "ops/s", D::kHigherIsBetter});
  out.push_back({"total_time_s", *total_s, "s", D::kLowerIsBetter});
  if (usecs_per_op) out.push_back({"usecs_per_op", *usecs_per_op, "us", D::kLowerIsBetter});
  if (n_processes) out.push_back({"processes", *n_processes, "count", D::kHigherIsBetter});
  return out;
}

}  // namespace schedrig::tools
