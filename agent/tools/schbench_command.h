// schbench's command line for one iteration from a case's `args`
// (masoncl/schbench schbench.c parse_options; docs/architecture.md
// "External tools"). The plan keeps schbench's own syntax; schedrig owns
// the run time, the output and the CPUs:
//   - -r/--runtime is refused (duration_s is the run time; the adapter adds
//     -r with the duration rounded up to whole seconds, as -r takes them);
//   - -j/--json is refused (the adapter adds `-j -` when the binary has it);
//   - -C/--calibrate and --help are refused (no benchmark run);
//   - -M/-W with a cpulist must lie inside the placement's cpulist and are
//     passed in the kernel's cpulist form; "auto" is what schbench's own
//     thread_auto_pin does, inside the placement: message thread i on the
//     placement's i-th PU and the workers on all of the placement's PUs
//     (schbench's loop that would leave the message CPUs out shadows its
//     counter, so its workers get every CPU). Either "auto" sets both.
#pragma once

#include <string>
#include <vector>

#include "agent/tools/tool_run_spec.h"

namespace schedrig::tools {

// argv after the binary's path. Throws ToolArgsError naming the argument
// and the reason.
std::vector<std::string> schbench_command(const std::vector<std::string>& args,
                                          const ToolRunSpec& run);

}  // namespace schedrig::tools
