// The workload registry: the one place a workload is added. Each entry
// declares its parameters with defaults, its primary metric, unit and
// direction, how to validate parameters, and how to run one iteration.
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "agent/workloads/metric.h"
#include "agent/workloads/params.h"
#include "agent/workloads/window_observer.h"

namespace schedrig::tools {
class ToolPaths;  // agent/tools/tool_paths.h
}  // namespace schedrig::tools

namespace schedrig::workloads {

struct ToolAdapter;  // tool_case.h

// What the runner gives a workload for one iteration. Fields after `stop`
// are optional (empty = unknown); every field has a default member
// initializer so `RunContext{cpus, duration, &stop}` stays warning-free.
struct RunContext {
  std::vector<int> cpus;  // the placement's PU OS indexes, non-empty
  std::chrono::nanoseconds duration{0};
  const std::atomic<bool>* stop = nullptr;  // set to end early (abort, SIGINT/SIGTERM handler)
  // Placement `split:K` only: PUs for the wakeup workload's message threads
  // and for its workers; together they partition `cpus`. Both empty
  // otherwise, and wakeup then splits `cpus` itself like schbench -M auto.
  std::vector<int> message_cpus{};
  std::vector<int> worker_cpus{};
  // Topology maps indexed by PU OS index: the LLC number (index into
  // Topology::llcs) and the NUMA node OS index of each PU, -1 = unknown.
  // Empty = not given. fork reports children per LLC/NUMA node and scopes
  // its placement collision rate with them (fork_storm.h).
  std::vector<int> pu_to_llc{};
  std::vector<int> pu_to_node{};
  // Optional: told the workload's threads (creator processes for fork) and
  // its live progress around the measured window (window_observer.h).
  WindowObserver observer{};
  // External tools only: which binary runs for each tool name (the agent's
  // tools: map); null = the defaults (tools::ToolPaths()).
  const tools::ToolPaths* tools = nullptr;
};

struct ParamSpec {
  const char* name;           // as in plans: "fork_max" (CLI flag: --fork-max)
  const char* default_value;  // nullptr = required
  const char* help;
};

struct WorkloadInfo {
  const char* name;  // "fork"
  const char* description;
  std::vector<ParamSpec> params;
  const char* primary_metric;  // name of metrics[0], e.g. "bogo_ops_per_s"
  const char* unit;            // of the primary metric, e.g. "ops/s"
  Direction direction;
  // Throws ParamError when `p` (defaults filled in) is invalid for n_cpus PUs.
  void (*validate)(const Params& p, std::size_t n_cpus);
  // Runs one iteration. Throws WorkloadError (workload_error.h) on failure.
  WorkloadResult (*run)(const Params& p, const RunContext& ctx);
  // External tools only (tool_case.h): the tool, its probe and its adapter;
  // null for the built-in workloads.
  const ToolAdapter* tool = nullptr;
};

// Every registered workload, in a fixed order.
const std::vector<WorkloadInfo>& all_workloads();

// Adds a simulated workload (tests only: the simulated kernel of
// tests/host/bisect); call before anything else looks workloads up, from
// one thread. Shipped binaries never call it. Throws ParamError for a name
// that is taken.
void add_workload_for_tests(const WorkloadInfo& w);

// The workload called `name`. Throws ParamError listing the known names.
const WorkloadInfo& find_workload(const std::string& name);

// `p` with each missing parameter set to its default. Throws ParamError for
// unknown parameters and for required ones that are missing.
Params with_defaults(const WorkloadInfo& w, const Params& p);

}  // namespace schedrig::workloads
