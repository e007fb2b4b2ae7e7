// The external tools in the registry (tool_case.h): each tool's adapter
// (command line, report, probe) and its registry entry.
#include <string_view>

#include <fmt/format.h>

#include "agent/tools/hackbench_command.h"
#include "agent/tools/hackbench_output.h"
#include "agent/tools/perf_bench_command.h"
#include "agent/tools/perf_bench_output.h"
#include "agent/tools/schbench_command.h"
#include "agent/tools/schbench_output.h"
#include "agent/tools/stress_ng_command.h"
#include "agent/tools/stress_ng_output.h"
#include "agent/tools/tool_argv.h"
#include "agent/workloads/tool_case.h"
#include "agent/workloads/workload_cases.h"

namespace schedrig::workloads {
namespace {

using D = Direction;
using tools::ToolExit;
using tools::ToolRunSpec;
using Args = std::vector<std::string>;

std::string both_streams(const ToolExit& e) { return e.stdout_text + "\n" + e.stderr_text; }

const ToolAdapter kSchbench{
    "schbench",
    tools::schbench_command,
    [](const ToolExit& e) { return tools::parse_schbench_output(e.stdout_text, e.stderr_text); },
    false,
    {"--help"},
    {"--runtime"}};

const ToolAdapter kStressNg{
    "stress-ng",
    tools::stress_ng_command,
    [](const ToolExit& e) { return tools::parse_stress_ng_output(both_streams(e)); },
    false,
    {"--help"},
    {"--metrics-brief", "--timeout", "--temp-path", "--taskset"}};

const ToolAdapter kHackbench{
    "hackbench",
    [](const Args& args, const ToolRunSpec&) { return tools::hackbench_command(args); },
    [](const ToolExit& e) { return tools::parse_hackbench_output(both_streams(e)); },
    true,
    {"--help"},
    {"--loops"}};

const ToolAdapter kPerfBenchSched{
    "perf",
    [](const Args& args, const ToolRunSpec&) { return tools::perf_bench_command(args); },
    [](const ToolExit& e) { return tools::parse_perf_bench_output(both_streams(e)); },
    true,
    {"bench", "sched", "messaging", "--help"},
    {"--nr_loops"}};

// The case's args: split (bounded, no shell) so a bad one fails at plan
// time; the rest is checked against the placement (check_tool_case).
template <const char* Name>
void validate_args(const Params& p, std::size_t /*n_cpus*/) {
  std::vector<std::string> words;
  try {
    words = tools::split_tool_args(Name, p.at("args"));
  } catch (const std::invalid_argument& e) {
    throw ParamError(e.what(), "args");
  }
  if (words.empty() && std::string_view(Name) == "stress-ng") {
    throw ParamError("stress-ng: parameter 'args' = '': names no stressor (e.g. \"--fork 4\")",
                     "args");
  }
}

constexpr char kSchbenchName[] = "schbench";
constexpr char kStressNgName[] = "stress-ng";
constexpr char kHackbenchName[] = "hackbench";
constexpr char kPerfName[] = "perf-bench-sched";

template <const char* Name>
WorkloadResult run_tool(const Params& p, const RunContext& ctx) {
  const WorkloadInfo& w = find_workload(Name);
  return run_tool_case(*w.tool, w, p, ctx);
}

}  // namespace

WorkloadInfo schbench_workload() {
  return {kSchbenchName,
          "schbench (masoncl/schbench, built and installed by you: docs/workloads.md) with the "
          "case's args; RPS, wakeup and request latency percentiles as schbench reports them",
          {{"args", "", "schbench's own arguments, e.g. \"-L -m 4 -M auto -t 256 -n 0 -s 0\""}},
          "requests_per_s",
          "requests/s",
          D::kHigherIsBetter,
          validate_args<kSchbenchName>,
          run_tool<kSchbenchName>,
          &kSchbench};
}

WorkloadInfo stress_ng_workload() {
  return {kStressNgName,
          "stress-ng (Debian's) with the case's stressors; bogo ops/s in real and CPU time from "
          "its --metrics-brief report",
          {{"args", nullptr, "stress-ng's own arguments, e.g. \"--fork 4 --fork-max 16\""}},
          "bogo_ops_per_s",
          "ops/s",
          D::kHigherIsBetter,
          validate_args<kStressNgName>,
          run_tool<kStressNgName>,
          &kStressNg};
}

WorkloadInfo hackbench_workload() {
  return {kHackbenchName,
          "hackbench (rt-tests) run again and again for the window; mean time per run of 100 "
          "loops",
          {{"args", "", "hackbench's own arguments, e.g. \"-g 4 -f 10 --threads\""}},
          "time_s",
          "s",
          D::kLowerIsBetter,
          validate_args<kHackbenchName>,
          run_tool<kHackbenchName>,
          &kHackbench};
}

WorkloadInfo perf_bench_sched_workload() {
  return {kPerfName,
          "perf bench sched messaging|pipe (linux-perf) run again and again for the window; mean "
          "total time (messaging) or ops/s (pipe) per run",
          {{"args", "messaging", "the benchmark and its options, e.g. \"pipe -T\""}},
          "total_time_s",
          "s",
          D::kLowerIsBetter,
          validate_args<kPerfName>,
          run_tool<kPerfName>,
          &kPerfBenchSched};
}

}  // namespace schedrig::workloads
