// stress-ng's command line for one iteration from a case's `args`
// (stress-ng.c, V0.15: getopt_long with the short options
// "?khMVvqnt:b:c:i:j:m:d:f:s:l:p:P:C:S:a:y:F:D:T:u:o:r:B:R:Y:x:" and some
// two thousand long ones that change from release to release). schedrig
// keeps no copy of that long table, so it reads args conservatively:
//   - every word that starts with "--" is a long option: refused when it
//     could name (equal, or be a getopt_long prefix of) a refused option,
//     so "--time=5" cannot slip past the refusal of --timeout;
//   - every other word that starts with "-" is a cluster of short options,
//     read with the table above (a letter that takes a value takes the rest
//     of the word or the next word, as getopt does); "-5" is a value;
//   - "--taskset" (or a prefix of it) must name CPUs inside the placement.
// A word that only getopt would have taken as another option's value may be
// refused too ("--cpu-method -t"): stress-ng itself would have read it one
// way or the other, and refusing is the safe side.
//
// Refused, each with its reason: the run time (-t/--timeout; schedrig adds
// --timeout), output and log files and job files (-Y/--yaml, --log-file,
// -j/--job, --syslog, --temp-path; schedrig adds --temp-path to the run's
// private directory), what changes the report schedrig reads (-q/--quiet,
// --log-brief), what is not one benchmark run (-h, -V, -n, --stressors,
// --verifiable, -a/--all, --parallel, -r/--random, --sequential,
// --permute, --with, --class), scheduling policy and NUMA binding (the
// plan's knobs and the case's membind, never the tool's: --sched*,
// --mbind), and what changes kernel controls or hangs the box
// (--ignite-cpu, --pathological). The adapter adds --metrics-brief.
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
