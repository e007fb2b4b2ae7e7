#include "agent/workloads/tool_case.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "agent/tools/tool_argv.h"
#include "agent/tools/tool_binary.h"
#include "agent/tools/tool_error.h"
#include "agent/tools/tool_tasks.h"
#include "agent/tools/tool_text.h"
#include "agent/tools/tool_work_dir.h"
#include "agent/workloads/workload_error.h"
#include "common/printable.h"

namespace schedrig::workloads {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

const tools::ToolPaths& paths_of(const RunContext& ctx) {
  static const tools::ToolPaths defaults;
  return ctx.tools ? *ctx.tools : defaults;
}

std::vector<std::string> split_args(const WorkloadInfo& w, const Params& p) {
  const auto it = p.find("args");
  return tools::split_tool_args(w.name, it == p.end() ? "" : it->second);
}

// The run's end, as an error quoting the tool when it does not count.
void check_exit(const ToolAdapter& a, const tools::ToolExit& e) {
  if (e.truncated) {
    throw tools::ToolRunError(fmt::format(
        "{}: printed more than schedrig keeps (4 MiB a stream); its run is not read", a.tool));
  }
  if (e.exit_code != 0) {
    throw tools::ToolRunError(fmt::format("{} {}: {}", a.tool, tools::describe_exit(e),
                                          tools::quote_tail(e.stderr_text + e.stdout_text)));
  }
}

// A run's metrics as the store may keep them: names a tool's report gave
// (a stressor's name, a JSON key) of [a-z0-9_] only, finite values.
std::vector<Metric> checked_metrics(const ToolAdapter& a, std::vector<Metric> metrics) {
  for (const Metric& m : metrics) {
    const bool name_ok = !m.name.empty() && m.name.size() <= 128 &&
                         std::all_of(m.name.begin(), m.name.end(), [](char c) {
                           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
                         });
    if (!name_ok || !std::isfinite(m.value)) {
      throw tools::ToolRunError(
          fmt::format("{}: its report gives a metric schedrig cannot keep: '{}' = {}", a.tool,
                      printable(m.name), m.value));
    }
  }
  return metrics;
}

// The mean of each of the first run's metrics over every run that has it,
// then `runs`.
std::vector<Metric> mean_of_runs(const std::vector<std::vector<Metric>>& runs) {
  std::vector<Metric> out = runs.front();
  for (Metric& m : out) {
    double mean = 0;  // a running mean: finite values never overflow it
    int n = 0;
    for (const auto& run : runs) {
      for (const Metric& r : run) {
        if (r.name == m.name) mean += (r.value - mean) / ++n;
      }
    }
    m.value = mean;
  }
  out.push_back({"runs", static_cast<double>(runs.size()), "runs", Direction::kHigherIsBetter});
  return out;
}

// Tells the observer about the first run's tasks once they are up.
class ToolWindow {
 public:
  explicit ToolWindow(const WindowObserver& o) : observer_(o) {}
  ~ToolWindow() {
    if (opened_ && observer_.closed) observer_.closed();
  }
  ToolWindow(const ToolWindow&) = delete;
  ToolWindow& operator=(const ToolWindow&) = delete;

  // Each run's tasks once they are up: the first run's open the window,
  // a later run's (repeat tools) replace them, with a shorter wait.
  void started(pid_t pgid) {
    if (opened_) {
      if (observer_.tasks_changed)
        observer_.tasks_changed(tools::settled_group_tasks(pgid, 5ms, 50ms));
      return;
    }
    if (!observer_.opened) return;
    WorkloadWindow window;
    window.tasks = tools::settled_group_tasks(pgid, 20ms, 500ms);
    window.ops_so_far = [this] { return runs_done.load(); };
    observer_.opened(window);
    opened_ = true;
  }

  std::atomic<std::uint64_t> runs_done{0};

 private:
  const WindowObserver& observer_;
  bool opened_ = false;
};

std::vector<std::vector<Metric>> run_tool_loop(const ToolAdapter& a, tools::ToolLaunch& launch,
                                               const RunContext& ctx, ToolWindow& window) {
  std::vector<std::vector<Metric>> runs;
  const auto end = Clock::now() + ctx.duration;
  do {
    const tools::ToolExit e = tools::run_tool_process(launch);
    if (e.stopped) break;
    check_exit(a, e);
    runs.push_back(checked_metrics(a, a.parse(e)));
    window.runs_done.fetch_add(1);
  } while (a.repeat && Clock::now() < end && !(ctx.stop && ctx.stop->load()));
  return runs;
}

}  // namespace

ToolProbe probe_tool(const ToolAdapter& a, const tools::ToolPaths& paths,
                     const std::vector<int>& cpus) {
  const std::string binary = tools::trusted_tool_binary(a.tool, paths.path_of(a.tool));
  tools::ToolWorkDir dir(a.tool);
  tools::ToolLaunch launch{a.tool, binary, a.probe_argv, cpus, dir.path()};
  launch.timeout = 10s;
  tools::ToolExit e;
  try {
    e = tools::run_tool_process(launch);
  } catch (const tools::ToolRunError& err) {
    throw tools::ToolArgsError(err.what());
  }
  std::string text = e.stdout_text + e.stderr_text;
  for (const std::string& option : a.needed) {
    if (text.find(option) != std::string::npos) continue;
    throw tools::ToolArgsError(fmt::format(
        "{}: binary {}: `{} {}` does not list {} ({}); schedrig needs a {} that has it", a.tool,
        binary, a.tool, fmt::join(a.probe_argv, " "), option, tools::describe_exit(e), a.tool));
  }
  return {binary, std::move(text)};
}

void check_tool_case(const ToolAdapter& a, const WorkloadInfo& w, const Params& p,
                     const std::vector<int>& cpus) {
  try {
    tools::ToolRunSpec spec{cpus, 1s};
    a.command(split_args(w, p), spec);
  } catch (const tools::ToolArgsError& e) {
    throw ParamError(e.what(), "args");
  }
}

WorkloadResult run_tool_case(const ToolAdapter& a, const WorkloadInfo& w, const Params& p,
                             const RunContext& ctx) {
  try {
    // The binary that runs is the one probed (resolved and checked once).
    const ToolProbe probe = probe_tool(a, paths_of(ctx), ctx.cpus);
    tools::ToolWorkDir dir(a.tool);
    tools::ToolRunSpec spec{ctx.cpus, ctx.duration, probe.help.find("--json") != std::string::npos,
                            dir.path()};
    tools::ToolLaunch launch{a.tool,   probe.binary, a.command(split_args(w, p), spec),
                             ctx.cpus, dir.path(),   ctx.stop};
    ToolWindow window(ctx.observer);
    launch.started = [&window](pid_t pgid) { window.started(pgid); };
    const auto runs = run_tool_loop(a, launch, ctx, window);
    if (runs.empty()) {
      throw WorkloadError(fmt::format("{}: stopped before its run ended: no result", w.name));
    }
    WorkloadResult out;
    out.metrics = runs.size() == 1 && !a.repeat ? runs.front() : mean_of_runs(runs);
    out.effective_params = {{"args", fmt::format("{}", fmt::join(launch.argv, " "))},
                            {"binary", launch.binary}};
    return out;
  } catch (const std::invalid_argument& e) {  // ToolArgsError
    throw WorkloadError(e.what());
  } catch (const tools::ToolRunError& e) {
    throw WorkloadError(e.what());
  }
}

}  // namespace schedrig::workloads
