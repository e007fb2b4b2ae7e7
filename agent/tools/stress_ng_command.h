// stress-ng's command line for one iteration from a case's `args`
// (stress-ng.c, V0.15: getopt_long with the short options
// "?khMVvqnt:b:c:i:j:m:d:f:s:l:p:P:C:S:a:y:F:D:T:u:o:r:B:R:Y:x:" and some
// two thousand long ones, among them options that load code (--plugin-so),
// change scheduling policy or kernel state, touch devices or move off the
// placement). So args is read against an allow-list:
//   - a long option is a listed stressor (--fork N, N an instance count in
//     [0, 1024]), one of its own options (--fork-max 16, --fork-vm: the
//     stressor's name, '-', anything; getopt_long's unique prefix of such a
//     name can only be another of the stressor's options), a listed general
//     option (--metrics, --verify, --seed N, ...), or --taskset (or a prefix)
//     naming CPUs inside the placement; a bare word after a stressor's own
//     option is its value;
//   - a short cluster uses the letters c f p s y T P Q (stressors), l, b
//     (values) and k M v (flags) only;
//   - anything else is refused, naming the word. The stressors are listed
//     in stress_ng_command.cpp and docs/workloads.md "External tools".
// The adapter adds --timeout (the window, rounded up), --metrics-brief and
// --temp-path (the run's private directory).
#pragma once

#include <string>
#include <vector>

#include "agent/tools/tool_run_spec.h"

namespace schedrig::tools {

// argv after the binary's path. Throws ToolArgsError naming the argument
// and the reason.
std::vector<std::string> stress_ng_command(const std::vector<std::string>& args,
                                           const ToolRunSpec& run);

}  // namespace schedrig::tools
