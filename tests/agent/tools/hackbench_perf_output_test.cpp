// parse_hackbench_output and parse_perf_bench_output: on the tools' own
// output (the texts below are verbatim runs of rt-tests 2.4 hackbench and
// linux-perf 6.1 `perf bench sched` on Debian 12), and on a live short run
// of each tool where it is installed (scripts/setup installs both).
#include <unistd.h>

#include <gtest/gtest.h>

#include "agent/tools/hackbench_output.h"
#include "agent/tools/perf_bench_output.h"
#include "agent/tools/tool_error.h"
#include "tests/support/run_command.h"

namespace schedrig::tools {
namespace {

using workloads::Direction;

TEST(HackbenchOutput, TimeIsThePrimaryMetric) {
  const auto ms = parse_hackbench_output(
      "Running in process mode with 2 groups using 40 file descriptors each (== 80 tasks)\n"
      "Each sender will pass 10 messages of 100 bytes\n"
      "Time: 0.099\n");
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_EQ(ms[0].name, "time_s");
  EXPECT_DOUBLE_EQ(ms[0].value, 0.099);
  EXPECT_EQ(ms[0].direction, Direction::kLowerIsBetter);
  EXPECT_EQ(ms[1].name, "tasks");
  EXPECT_EQ(ms[1].value, 80);
  EXPECT_THROW(parse_hackbench_output("hackbench: error: cannot fork\n"), ToolRunError);
}

TEST(PerfBenchOutput, PipeIsOpsPerSecondMessagingIsTotalTime) {
  const auto pipe = parse_perf_bench_output(
      "# Running 'sched/pipe' benchmark:\n"
      "# Executed 20000 pipe operations between two processes\n\n"
      "     Total time: 0.433 [sec]\n\n"
      "      21.683400 usecs/op\n"
      "          46118 ops/sec\n");
  ASSERT_EQ(pipe.size(), 3u);
  EXPECT_EQ(pipe[0].name, "ops_per_s");
  EXPECT_EQ(pipe[0].value, 46118);
  EXPECT_EQ(pipe[1].name, "total_time_s");
  EXPECT_DOUBLE_EQ(pipe[1].value, 0.433);
  EXPECT_EQ(pipe[2].name, "usecs_per_op");
  EXPECT_DOUBLE_EQ(pipe[2].value, 21.6834);
  const auto messaging = parse_perf_bench_output(
      "# Running 'sched/messaging' benchmark:\n"
      "# 20 sender and receiver processes per group\n"
      "# 10 groups == 400 processes run\n\n"
      "     Total time: 2.119 [sec]\n");
  ASSERT_EQ(messaging.size(), 2u);
  EXPECT_EQ(messaging[0].name, "total_time_s");
  EXPECT_EQ(messaging[0].direction, Direction::kLowerIsBetter);
  EXPECT_EQ(messaging[1].name, "processes");
  EXPECT_EQ(messaging[1].value, 400);
  EXPECT_THROW(parse_perf_bench_output("perf: 'bench' is not a perf-command.\n"), ToolRunError);
}

// The installed tool's real output parses (skips where it is not installed).
void expect_live_parse(const std::string& binary, const std::string& args,
                       std::vector<workloads::Metric> (*parse)(const std::string&),
                       const std::string& first_metric) {
  if (::access(binary.c_str(), X_OK) != 0) GTEST_SKIP() << binary << " is not installed";
  const auto r = testing::run_command(binary + " " + args + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto ms = parse(r.output);
  ASSERT_FALSE(ms.empty());
  EXPECT_EQ(ms[0].name, first_metric) << r.output;
  EXPECT_GT(ms[0].value, 0) << r.output;
}

TEST(HackbenchOutput, ALiveRunParses) {
  expect_live_parse("/usr/bin/hackbench", "-g 2 -l 20", parse_hackbench_output, "time_s");
}

TEST(PerfBenchOutput, LivePipeAndMessagingRunsParse) {
  expect_live_parse("/usr/bin/perf", "bench sched pipe -l 2000", parse_perf_bench_output,
                    "ops_per_s");
  expect_live_parse("/usr/bin/perf", "bench sched messaging -g 2 -l 20", parse_perf_bench_output,
                    "total_time_s");
}

}  // namespace
}  // namespace schedrig::tools
