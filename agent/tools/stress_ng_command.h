// stress-ng's command line for one iteration from a case's `args`
// (stress-ng.c, V0.15: getopt_long with the short options
// "?khMVvqnt:b:c:i:j:m:d:f:s:l:p:P:C:S:a:y:F:D:T:u:o:r:B:R:Y:x:" and some
// two thousand long ones, among them options that load code (--plugin-so),
// change scheduling policy or kernel state, touch devices or move off the
// placement). So args is read against an allow-list of exact names
// (getopt_long takes an exact name over any longer one it prefixes; no
// prefix is accepted):
//   - the stressors listed in stress_ng_command.cpp (--fork N), each with
//     its own options from stress-ng's --help (--fork-max P, --fork-ops N,
//     --fork-vm), a few general options (--metrics, --verify, --seed N, ...)
//     and --taskset with CPUs inside the placement;
//   - short clusters with the letters c f p s y T P Q (stressors), l, b
//     (values) and k M v (flags);
//   - at most 16384 tasks in all (tool_options.h kMaxToolTasks): each
//     stressor's instances (0 = one per CPU) times its tasks per instance
//     (--fork-max, --pthread-max, ... or stress-ng's defaults).
// Anything else is refused, naming the word. The adapter adds --timeout
// (the window, rounded up), --metrics-brief and --temp-path (the run's
// private directory).
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
