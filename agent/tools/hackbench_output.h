// hackbench's report as metrics (rt-tests src/hackbench/hackbench.c: it
// prints "Running in process mode with 10 groups using 40 file descriptors
// each (== 400 tasks)", "Each sender will pass 100 messages of 100 bytes",
// then "Time: 0.165", the wall time of the whole run in seconds).
#pragma once

#include <string>
#include <vector>

#include "agent/workloads/metric.h"

namespace schedrig::tools {

// metrics[0] time_s (lower is better), then tasks (from "(== N tasks)",
// when printed). Throws ToolRunError quoting the output when there is no
// "Time:" line.
std::vector<workloads::Metric> parse_hackbench_output(const std::string& output);

}  // namespace schedrig::tools
