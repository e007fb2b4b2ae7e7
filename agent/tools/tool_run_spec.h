// What an adapter needs to build a tool's command line for one iteration.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace schedrig::tools {

struct ToolRunSpec {
  std::vector<int> cpus;  // the placement's PUs (OS indexes), non-empty; the tool's affinity
  std::chrono::nanoseconds duration{0};  // the iteration's window, from the plan's duration_s
  bool schbench_json = false;            // the binary takes -j (its --help lists --json)
  std::string work_dir{};  // the run's private directory (tool_work_dir.h); "" = not made yet
};

}  // namespace schedrig::tools
