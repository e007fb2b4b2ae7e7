// `perf bench sched` command lines from a case's `args` (tools/perf/bench/
// sched-messaging.c and sched-pipe.c, linux-perf 6.1): the first word names
// the benchmark, `messaging` or `pipe`, the rest are its options. Like
// hackbench it runs a number of loops and exits, so the runner starts it
// again and again until the window closes, each run with the loop count set
// here: messaging's default of 100, and 100000 for pipe (its default of
// 1000000 takes ~20 s on a small VM, longer than many windows). Refused:
// -l/--nr_loops/--loop (the loop count is schedrig's), -G/--cgroups (where
// tasks run is the placement's), --help, options before the benchmark (perf
// bench's -f/--format and -r/--repeat: the report format and the repeats
// are schedrig's) and other benchmarks.
#pragma once

#include <string>
#include <vector>

namespace schedrig::tools {

inline constexpr int kPerfMessagingLoops = 100;
inline constexpr int kPerfPipeLoops = 100000;

// argv after the binary's path: "bench", "sched", the benchmark, its
// options, "-l", the loops. Throws ToolArgsError naming the argument.
std::vector<std::string> perf_bench_command(const std::vector<std::string>& args);

}  // namespace schedrig::tools
