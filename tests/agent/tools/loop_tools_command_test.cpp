// hackbench_command and perf_bench_command: tools that run loops, not a time
// (agent/tools/hackbench_command.h, perf_bench_command.h).
#include <gtest/gtest.h>

#include "agent/tools/hackbench_command.h"
#include "agent/tools/perf_bench_command.h"
#include "agent/tools/tool_argv.h"
#include "agent/tools/tool_error.h"

namespace schedrig::tools {
namespace {

using Strings = std::vector<std::string>;

Strings hackbench(const std::string& args) {
  return hackbench_command(split_tool_args("hackbench", args));
}
Strings perf(const std::string& args) {
  return perf_bench_command(split_tool_args("perf-bench-sched", args));
}

template <typename F>
std::string error_of(F build, const std::string& args) {
  try {
    build(args);
  } catch (const ToolArgsError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(HackbenchCommand, KeepsItsOptionsAndSetsTheLoops) {
  EXPECT_EQ(hackbench("-g 10 --threads --pipe -s 512 -f 20"),
            (Strings{"-g", "10", "-T", "-p", "-s", "512", "-f", "20", "-l", "100"}));
  EXPECT_EQ(hackbench(""), (Strings{"-l", "100"}));
  EXPECT_EQ(error_of(hackbench, "-g 4 -l 1000"),
            "hackbench: argument '-l': the loop count is schedrig's (each run passes 100 loops; "
            "runs repeat until the window closes); leave it out");
  EXPECT_EQ(error_of(hackbench, "--fifo"),
            "hackbench: argument '--fifo': a SCHED_FIFO main thread: scheduling policy is the "
            "plan's to set, never a tool's");
  EXPECT_EQ(error_of(hackbench, "-g 4 ; reboot"),
            "hackbench: argument ';': not an option (operands are not taken)");
}

// hackbench -g G -f F starts 2 G F tasks, perf messaging -g G 40 G: bounded.
TEST(LoopTools, TasksAreBounded) {
  EXPECT_EQ(error_of(hackbench, "-g 100000 -f 1000"),
            "hackbench: argument '-g': '100000': must be a whole number in [1, 16384]");
  EXPECT_EQ(error_of(hackbench, "-g 500"),
            "hackbench: arguments -g 500 -f 20 make 20000 tasks: at most 16384");
  EXPECT_EQ(hackbench("-g 400").size(), 4u);
  EXPECT_EQ(error_of(perf, "messaging -g 1000"),
            "perf-bench-sched: arguments -g 1000 make 40000 tasks: at most 16384");
  EXPECT_EQ(perf("pipe").size(), 5u);
}

TEST(PerfBenchCommand, NamesTheBenchmarkFirstAndSetsTheLoops) {
  EXPECT_EQ(perf("messaging -g 20 -t -p"),
            (Strings{"bench", "sched", "messaging", "-g", "20", "-t", "-p", "-l", "100"}));
  EXPECT_EQ(perf("pipe --threaded"), (Strings{"bench", "sched", "pipe", "-T", "-l", "100000"}));
  EXPECT_EQ(error_of(perf, "pipe -l 5"),
            "perf-bench-sched: argument '-l': the loop count is schedrig's (each run does "
            "100000; runs repeat until the window closes); leave it out");
  EXPECT_EQ(error_of(perf, "pipe -G a,b"),
            "perf-bench-sched: argument '-G': where the tasks run is the placement's, not a "
            "cgroup's");
  EXPECT_EQ(error_of(perf, "messaging -T"),
            "perf-bench-sched: argument '-T': -T is not an option schedrig lets this tool take");
  EXPECT_EQ(error_of(perf, "-r 5 messaging"),
            "perf-bench-sched: argument '-r': the first argument names the benchmark: messaging "
            "or pipe");
  EXPECT_EQ(error_of(perf, ""),
            "perf-bench-sched: argument '': the first argument names the benchmark: messaging or "
            "pipe");
  EXPECT_EQ(error_of(perf, "numa mem"),
            "perf-bench-sched: argument 'numa': the first argument names the benchmark: "
            "messaging or pipe");
}

}  // namespace
}  // namespace schedrig::tools
