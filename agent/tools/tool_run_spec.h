// What an adapter needs to build a tool's command line for one iteration.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

namespace schedrig::tools {

struct ToolRunSpec {
  std::vector<int> cpus;  // the placement's PUs (OS indexes), non-empty; the tool's affinity
  std::chrono::nanoseconds duration{0};  // the iteration's window, from the plan's duration_s
  bool schbench_json = false;            // the binary takes -j (its --help lists --json)
  std::string work_dir{};  // the run's private directory (tool_work_dir.h); "" = not made yet
};

// The window in whole seconds, rounded up, at least 1: what a tool that
// takes its run time in seconds is given (schbench -r, stress-ng --timeout).
inline long long window_seconds(const ToolRunSpec& run) {
  const double s = std::chrono::duration<double>(run.duration).count();
  return std::max(1LL, static_cast<long long>(std::ceil(s)));
}

}  // namespace schedrig::tools
