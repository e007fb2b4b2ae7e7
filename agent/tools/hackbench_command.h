// hackbench's command line for one run from a case's `args` (rt-tests
// src/hackbench/hackbench.c, 2.4). hackbench has no run time: it passes a
// number of messages per sender (-l/--loops) and exits, so the runner starts
// it again and again until the window closes (docs/workloads.md "External
// tools"), and each run gets hackbench's own default of 100 loops, set here
// explicitly so a new default cannot change what a run is. Refused:
// -l/--loops (the loop count is schedrig's), -F/--fifo (a SCHED_FIFO main
// thread: scheduling policy is a knob of the plan's, never a tool's), and
// --help.
#pragma once

#include <string>
#include <vector>

namespace schedrig::tools {

// hackbench's loops per run.
inline constexpr int kHackbenchLoops = 100;

// argv after the binary's path. Throws ToolArgsError naming the argument.
std::vector<std::string> hackbench_command(const std::vector<std::string>& args);

}  // namespace schedrig::tools
