#include "agent/tools/hackbench_output.h"

#include <regex>
#include <sstream>

#include "agent/tools/tool_error.h"
#include "agent/tools/tool_text.h"

namespace schedrig::tools {

std::vector<workloads::Metric> parse_hackbench_output(const std::string& output) {
  using D = workloads::Direction;
  static const std::regex tasks(R"(\(== ([0-9]+) tasks\))");
  std::optional<double> time_s, n_tasks;
  for_each_line(output, [&](const std::string& line) {
    std::smatch m;
    if (auto t = number_after(line, "Time: ")) time_s = t;
    if (std::regex_search(line, m, tasks)) n_tasks = to_double(m[1].str());
  });
  if (!time_s)
    throw ToolRunError("hackbench: no 'Time:' line in its output: " + quote_tail(output));
  std::vector<workloads::Metric> out{{"time_s", *time_s, "s", D::kLowerIsBetter}};
  if (n_tasks) out.push_back({"tasks", *n_tasks, "count", D::kHigherIsBetter});
  return out;
}

}  // namespace schedrig::tools
