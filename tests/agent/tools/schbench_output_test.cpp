// parse_schbench_output against schbench's real reports
// (../shared/fixtures/bench-output/schbench_*, each with its SOURCE.txt).
#include "agent/tools/schbench_output.h"

#include <gtest/gtest.h>

#include "agent/tools/tool_error.h"
#include "tests/support/fixtures.h"

namespace schedrig::tools {
namespace {

using workloads::Direction;
using workloads::Metric;

const Metric& metric(const std::vector<Metric>& ms, const std::string& name) {
  for (const Metric& m : ms) {
    if (m.name == name) return m;
  }
  throw std::runtime_error("no metric " + name);
}

bool has(const std::vector<Metric>& ms, const std::string& name) {
  for (const Metric& m : ms) {
    if (m.name == name) return true;
  }
  return false;
}

// The text between the first line starting with `from` and the next line
// starting with `to` ("" = the end).
std::string section(const std::string& text, const std::string& from, const std::string& to) {
  const auto start = text.find(from);
  if (start == std::string::npos) throw std::runtime_error("no " + from);
  const auto end = to.empty() ? std::string::npos : text.find(to, start + from.size());
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TEST(SchbenchOutput, ReadmeFullRunGivesRpsLatenciesAndDirections) {
  SCHEDRIG_FIXTURE(text, "bench-output/schbench_README_full-run-90s.txt");
  const auto ms = parse_schbench_output("", text);
  ASSERT_FALSE(ms.empty());
  EXPECT_EQ(ms[0].name, "requests_per_s");
  EXPECT_DOUBLE_EQ(ms[0].value, 3009.10);
  EXPECT_EQ(ms[0].unit, "requests/s");
  EXPECT_EQ(ms[0].direction, Direction::kHigherIsBetter);
  EXPECT_EQ(metric(ms, "wakeup_latency_p50_us").value, 7);
  EXPECT_EQ(metric(ms, "wakeup_latency_p90_us").value, 20);
  EXPECT_EQ(metric(ms, "wakeup_latency_p99_us").value, 272);
  EXPECT_EQ(metric(ms, "wakeup_latency_p99_9_us").value, 1266);
  EXPECT_EQ(metric(ms, "wakeup_latency_max_us").value, 10481);
  EXPECT_EQ(metric(ms, "wakeup_latency_p99_us").direction, Direction::kLowerIsBetter);
  EXPECT_EQ(metric(ms, "request_latency_p99_us").value, 19616);
  EXPECT_EQ(metric(ms, "request_latency_max_us").value, 48606);
  EXPECT_EQ(metric(ms, "rps_p20").value, 2996);
  EXPECT_EQ(metric(ms, "rps_p50").value, 3004);
  EXPECT_EQ(metric(ms, "rps_p50").unit, "requests/s");
  EXPECT_FALSE(has(ms, "message_sched_delay_us"));  // the README elides that line
}

TEST(SchbenchOutput, PipeModeIsTransfersPerSecond) {
  SCHEDRIG_FIXTURE(text, "bench-output/schbench_README_pipe-mode.txt");
  const auto ms = parse_schbench_output("", text);
  EXPECT_EQ(ms[0].name, "transfers_per_s");
  EXPECT_DOUBLE_EQ(ms[0].value, 21924.84);
  EXPECT_EQ(metric(ms, "wakeup_latency_p20_us").value, 6);
  EXPECT_EQ(metric(ms, "wakeup_latency_p99_us").value, 8);
  EXPECT_EQ(metric(ms, "wakeup_latency_max_us").value, 562);
  EXPECT_FALSE(has(ms, "request_latency_p50_us"));
}

TEST(SchbenchOutput, NewFormatRunsFromLkmlParseEachOnItsOwn) {
  SCHEDRIG_FIXTURE(text,
                   "bench-output/schbench_LKML_POWER-96cpu-SMT8-2numa_old-v1-and-new-format.txt");
  const std::string baseline = section(text, "schbench(new)", "SIS_CACHE\n=========\nWakeup");
  const auto ms = parse_schbench_output("", baseline);
  EXPECT_DOUBLE_EQ(ms[0].value, 6984.77);
  EXPECT_EQ(metric(ms, "wakeup_latency_p99_us").value, 20);
  EXPECT_EQ(metric(ms, "wakeup_latency_p99_9_us").value, 775);
  EXPECT_EQ(metric(ms, "request_latency_p50_us").value, 13648);
  EXPECT_EQ(metric(ms, "rps_p50").value, 6984);
  const auto sis = parse_schbench_output("", section(text, "SIS_CACHE\n=========\nWakeup", ""));
  EXPECT_DOUBLE_EQ(sis[0].value, 6981.07);
  EXPECT_EQ(metric(sis, "wakeup_latency_p99_9_us").value, 1146);
}

TEST(SchbenchOutput, V1FormatIsWakeupLatencyOnlyAndTheLastBlockCounts) {
  SCHEDRIG_FIXTURE(text,
                   "bench-output/schbench_LKML_POWER-96cpu-SMT8-2numa_old-v1-and-new-format.txt");
  // The five baseline runs one after another: the last block is what counts.
  const auto ms = parse_schbench_output("", section(text, "Baseline (5 runs)", "SIS_CACHE"));
  EXPECT_EQ(ms[0].name, "wakeup_latency_p99_us");
  EXPECT_EQ(ms[0].value, 711);
  EXPECT_EQ(ms[0].direction, Direction::kLowerIsBetter);
  EXPECT_EQ(metric(ms, "wakeup_latency_p50_us").value, 23);
  EXPECT_EQ(metric(ms, "wakeup_latency_p99_5_us").value, 4600);
  EXPECT_EQ(metric(ms, "wakeup_latency_p99_9_us").value, 9424);
  EXPECT_EQ(metric(ms, "wakeup_latency_max_us").value, 19997);
  int primaries = 0;
  for (const Metric& m : ms) primaries += m.name == "wakeup_latency_p99_us";
  EXPECT_EQ(primaries, 1);
}

TEST(SchbenchOutput, JsonPercentilesWinAndSchedDelayIsRead) {
  const std::string err =
      "Wakeup Latencies percentiles (usec) runtime 4 (s) (100 total samples)\n"
      "\t  50.0th: 8          (43 samples)\n\t* 99.0th: 20         (18 samples)\n"
      "\t  min=1, max=84\n"
      "average rps: 250.00\n"
      "sched delay: message 12 (usec) worker 345 (usec)\n";
  const std::string out =
      R"({"normal": {"version": "6.12.0", "hostname": "box", "sched_ext": "disabled",)"
      R"( "cmdline": "schbench -j -"},"int": {"time": 1, "wakeup_latency_pct50.0": 9,)"
      R"( "wakeup_latency_pct99.0": 21, "wakeup_latency_min": 1,"wakeup_latency_max": 85,)"
      R"( "runtime": 4}})";
  const auto ms = parse_schbench_output(out, err);
  EXPECT_DOUBLE_EQ(ms[0].value, 250);
  EXPECT_EQ(metric(ms, "wakeup_latency_p50_us").value, 9);
  EXPECT_EQ(metric(ms, "wakeup_latency_p99_us").value, 21);
  EXPECT_EQ(metric(ms, "wakeup_latency_max_us").value, 85);
  EXPECT_EQ(metric(ms, "message_sched_delay_us").value, 12);
  EXPECT_EQ(metric(ms, "worker_sched_delay_us").value, 345);
  // JSON that does not parse leaves the text's figures.
  EXPECT_EQ(metric(parse_schbench_output("{\"int\": {", err), "wakeup_latency_p50_us").value, 8);
}

TEST(SchbenchOutput, NoReportIsARunErrorQuotingTheOutput) {
  try {
    parse_schbench_output("", "schbench usage:\n\t-C (--calibrate): ...\x1b[2J\n");
    FAIL() << "expected ToolRunError";
  } catch (const ToolRunError& e) {
    EXPECT_EQ(std::string(e.what()),
              "schbench: no latency report in its output: 'schbench usage:\\n\\t-C "
              "(--calibrate): ...\\e[2J'");
  }
  EXPECT_THROW(parse_schbench_output("", ""), ToolRunError);
}

}  // namespace
}  // namespace schedrig::tools
