// parse_stress_ng_output against stress-ng's real reports
// (../shared/fixtures/bench-output/stress-ng_*, each with its SOURCE.txt).
#include "agent/tools/stress_ng_output.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include "agent/tools/tool_error.h"
#include "tests/support/fixtures.h"
#include "tests/support/run_command.h"

namespace schedrig::tools {
namespace {

using workloads::Direction;
using workloads::Metric;

double value(const std::vector<Metric>& ms, const std::string& name) {
  for (const Metric& m : ms) {
    if (m.name == name) return m.value;
  }
  throw std::runtime_error("no metric " + name);
}

std::string run_error(const std::string& output) {
  try {
    parse_stress_ng_output(output);
  } catch (const ToolRunError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(StressNgOutput, MetricsBriefRowOfTheMetrcFormat) {
  SCHEDRIG_FIXTURE(text, "bench-output/stress-ng_LKML_axboe_msg_metrics-brief_256thread-box.txt");
  // The fixture holds two runs; the first is one run's whole output.
  const std::string first = text.substr(0, text.find("\n\n"));
  const auto ms = parse_stress_ng_output(first);
  EXPECT_EQ(ms[0].name, "bogo_ops_per_s");
  EXPECT_DOUBLE_EQ(ms[0].value, 26845470.19);
  EXPECT_EQ(ms[0].unit, "ops/s");
  EXPECT_EQ(ms[0].direction, Direction::kHigherIsBetter);
  EXPECT_DOUBLE_EQ(value(ms, "msg_bogo_ops"), 1626997107);
  EXPECT_DOUBLE_EQ(value(ms, "msg_real_time_s"), 60.61);
  EXPECT_DOUBLE_EQ(value(ms, "msg_usr_time_s"), 171.63);
  EXPECT_DOUBLE_EQ(value(ms, "msg_sys_time_s"), 4003.65);
  EXPECT_DOUBLE_EQ(value(ms, "msg_bogo_ops_per_cpu_s"), 389673.05);
  EXPECT_THROW(value(ms, "msg_cpu_used_pct"), std::runtime_error);
}

TEST(StressNgOutput, OldInfoFormatWithSeveralStressorsAndCpuUsed) {
  SCHEDRIG_FIXTURE(text,
                   "bench-output/stress-ng_README_cpu4-vm2-hdd1-fork8_metrics_old-info-format.txt");
  const auto ms = parse_stress_ng_output(text);
  EXPECT_DOUBLE_EQ(ms[0].value, 4294.89);  // the first row: cpu
  EXPECT_DOUBLE_EQ(value(ms, "fork_bogo_ops"), 598058);
  EXPECT_DOUBLE_EQ(value(ms, "fork_bogo_ops_per_s"), 4983.80);
  EXPECT_DOUBLE_EQ(value(ms, "fork_cpu_used_pct"), 13.97);
  EXPECT_DOUBLE_EQ(value(ms, "hdd_real_time_s"), 123.78);
  EXPECT_DOUBLE_EQ(value(ms, "vm_bogo_ops_per_cpu_s"), 10022.27);
}

TEST(StressNgOutput, MetricsWithRssAndAPassingSummary) {
  SCHEDRIG_FIXTURE(text, "bench-output/stress-ng_README_cpu8_metrics_metrc-format-with-RSS.txt");
  const auto ms = parse_stress_ng_output(text);
  EXPECT_DOUBLE_EQ(ms[0].value, 12762.02);
  EXPECT_DOUBLE_EQ(value(ms, "cpu_cpu_used_pct"), 95.54);
  EXPECT_DOUBLE_EQ(value(ms, "cpu_rss_max_kib"), 3148);
}

TEST(StressNgOutput, CorruptedMetricsFailTheRunInStressNgsWords) {
  SCHEDRIG_FIXTURE(
      text, "bench-output/stress-ng_issue115_fork1_metrics-brief_sparc64_corrupted-metrics.txt");
  const std::string e = run_error(text);
  EXPECT_EQ(
      e.rfind("stress-ng: the run failed: 'fork instance 0 corrupted bogo-ops counter, 825 vs 0; ",
              0),
      0u)
      << e;
  EXPECT_NE(e.find("metrics-check: stressor metrics corrupted, data is compromised'"),
            std::string::npos)
      << e;
}

TEST(StressNgOutput, FailedAndUntrustworthySummariesFail) {
  const std::string row = "stress-ng: metrc: [9] fork 598058 120.00 68.24 65.88 4983.80 4459.13\n";
  EXPECT_EQ(run_error(row + "stress-ng: info:  [9] failed: 1: fork (1)\n"),
            "stress-ng: the run failed: 'failed: 1: fork (1)'");
  EXPECT_EQ(run_error(row + "stress-ng: info:  [9] metrics untrustworthy: 2: fork (2)\n"),
            "stress-ng: the run failed: 'metrics untrustworthy: 2: fork (2)'");
  EXPECT_EQ(parse_stress_ng_output(row + "stress-ng: info:  [9] failed: 0\n")[0].value, 4983.80);
}

TEST(StressNgOutput, NoRowIsARunError) {
  EXPECT_EQ(run_error("stress-ng: info:  [1] dispatching hogs: 1 fork\n"),
            "stress-ng: no metrics row in its output (was --metrics-brief given?): "
            "'stress-ng: info:  [1] dispatching hogs: 1 fork'");
  // A row with too few numbers is no row.
  EXPECT_THROW(parse_stress_ng_output("stress-ng: metrc: [1] fork 1 2 3\n"), ToolRunError);
}

// The installed stress-ng's own output (Debian 12: 0.15.06, "metrc:" lines).
TEST(StressNgOutput, ALiveForkRunParses) {
  if (::access("/usr/bin/stress-ng", X_OK) != 0) GTEST_SKIP() << "stress-ng is not installed";
  const auto r = testing::run_command("/usr/bin/stress-ng --fork 1 -t 1 --metrics-brief 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto ms = parse_stress_ng_output(r.output);
  EXPECT_GT(ms[0].value, 0) << r.output;
  EXPECT_GT(value(ms, "fork_bogo_ops"), 0) << r.output;
  EXPECT_GT(value(ms, "fork_real_time_s"), 0.5) << r.output;
}

}  // namespace
}  // namespace schedrig::tools
