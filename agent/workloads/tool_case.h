// An external benchmark tool as a workload (docs/workloads.md "External
// tools"): the registry entries schbench, stress-ng, hackbench and
// perf-bench-sched share this runner. A case names the tool's arguments in
// its own syntax (param `args`); the binary comes from the agent's tools:
// map (RunContext::tools), never from a plan.
#pragma once

#include <string>
#include <vector>

#include "agent/tools/tool_paths.h"
#include "agent/tools/tool_process.h"
#include "agent/tools/tool_run_spec.h"
#include "agent/workloads/registry.h"

namespace schedrig::workloads {

struct ToolAdapter {
  const char* tool;  // its key in the tools: map: "perf" for perf-bench-sched
  // argv after the binary for one run, from the case's split args. Throws
  // tools::ToolArgsError naming the argument.
  std::vector<std::string> (*command)(const std::vector<std::string>& args,
                                      const tools::ToolRunSpec& run);
  // Metrics of one run (metrics[0] primary). Throws tools::ToolRunError.
  std::vector<Metric> (*parse)(const tools::ToolExit& run);
  // Runs again until the window closes (tools that pass a fixed amount of
  // work: hackbench, perf bench); metrics are then the mean over the runs.
  bool repeat;
  std::vector<std::string> probe_argv;  // what makes the binary describe itself: {"--help"}
  std::vector<std::string> needed;      // options its description must list
};

// A tool's binary as probed: the resolved path that runs, and what it
// printed for its probe_argv.
struct ToolProbe {
  std::string binary;
  std::string help;
};

// The binary for `a`: its path from `paths`, checked by trusted_tool_binary,
// run with probe_argv (10 s at most); every `needed` option must appear in
// what it printed. Throws tools::ToolArgsError naming the tool, the binary
// and what is missing ("stress-ng: binary /usr/bin/stress-ng: `stress-ng
// --help` does not list --metrics-brief (...); schedrig needs a stress-ng
// that has it").
ToolProbe probe_tool(const ToolAdapter& a, const tools::ToolPaths& paths,
                     const std::vector<int>& cpus);

// Checks a case's `args` against its placement's PUs `cpus` (refused
// arguments, pinning outside the placement). Throws ParamError on `args`.
void check_tool_case(const ToolAdapter& a, const WorkloadInfo& w, const Params& p,
                     const std::vector<int>& cpus);

// One iteration: probe, then the tool in its own process group with the
// placement as its affinity, once or (repeat) until the window closes; its
// first run's tasks go to ctx.observer. Throws WorkloadError with the
// tool's own words when it fails, exits non-zero or prints no report.
WorkloadResult run_tool_case(const ToolAdapter& a, const WorkloadInfo& w, const Params& p,
                             const RunContext& ctx);

}  // namespace schedrig::workloads
