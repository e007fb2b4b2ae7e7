// What `--fail-on regression` judges (host/compare/gate.h): the primary
// metric by default, --metric, --all-metrics, --threshold and a plan's
// gate:; and the disturbed iterations left out, counted, included or alone.
#include "host/compare/gate.h"

#include <sstream>

#include <gtest/gtest.h>

#include "host/report/compare_header.h"
#include "host/report/compare_text.h"
#include "tests/host/compare/stored_runs.h"

namespace schedrig::compare {
namespace {

using testing::jitter;
using testing::SyntheticRun;

// fork-all: ops_per_s unchanged in "slower"; Gate::table scales its
// wakeup_p99_us (the second metric) by a factor.
SyntheticRun latency_regression() {
  SyntheticRun s;
  s.run_id = testing::run_id(1);
  s.variants = {"baseline", "slower"};
  s.ops = [](const std::string&, const std::string& v, unsigned i) {
    return 10000 * (1 + 0.005 * jitter(i, v == "baseline" ? 0 : 1));
  };
  return s;
}

class Gate : public testing::StoredRuns {
 protected:
  Table table(SyntheticRun s, double latency_scale) {
    store::RunRecord run = stored(s);
    for (auto& it : run.iterations) {
      if (it.variant == "slower") it.metrics[1].value *= latency_scale;
    }
    return compare_variants(run, options_);
  }
  CompareOptions options_;
};

TEST_F(Gate, JudgesThePrimaryMetricByDefault) {
  const Table t = table(latency_regression(), 1.08);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_TRUE(t.rows[0].primary);
  EXPECT_FALSE(t.rows[1].primary);
  EXPECT_EQ(t.rows[1].cells[0].comparison.verdict, analysis::Verdict::kRegression);
  EXPECT_TRUE(gate_failures(t, {}).empty());

  GateOptions metric;
  metric.metrics = {"wakeup_p99_us"};
  const auto failures = gate_failures(t, metric);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].where, "fork-all/slower");
  EXPECT_EQ(failures[0].metric, "wakeup_p99_us");
  EXPECT_NEAR(failures[0].change_pct, 8.0, 1.0);
  EXPECT_EQ(gate_line(failures[0]).substr(0, 37), "gate: fork-all/slower wakeup_p99_us +");
  EXPECT_NE(gate_line(failures[0]).find("% (R) [no threshold]"), std::string::npos)
      << gate_line(failures[0]);

  GateOptions all;
  all.all_metrics = true;
  EXPECT_EQ(gate_failures(t, all).size(), 1u);
  all.threshold_pct = 10;  // the 8% change is below it
  EXPECT_TRUE(gate_failures(t, all).empty());
  all.threshold_pct = 5;
  ASSERT_EQ(gate_failures(t, all).size(), 1u);
  EXPECT_NE(gate_line(gate_failures(t, all)[0]).find("[threshold 5%]"), std::string::npos);

  GateOptions unknown;
  unknown.metrics = {"nope_us"};
  try {
    gate_failures(t, unknown);
    FAIL() << "no error";
  } catch (const CompareError& e) {
    EXPECT_STREQ(e.what(),
                 "--metric nope_us: no such metric in the comparison (metrics: ops_per_s, "
                 "wakeup_p99_us)");
  }
}

TEST_F(Gate, APlanGateNamesTheMetricAndItsThreshold) {
  SyntheticRun s = latency_regression();
  v1::Gate g;
  g.set_metric("wakeup_p99_us");
  s.gates["fork-all"] = g;
  const Table t = table(s, 1.08);
  ASSERT_EQ(t.gates.count("fork-all"), 1u);
  EXPECT_EQ(gate_failures(t, {}).size(), 1u);
  GateOptions cli;
  cli.metrics = {"ops_per_s"};  // the command line wins
  EXPECT_TRUE(gate_failures(t, cli).empty());

  g.set_threshold_pct(10);
  s.gates["fork-all"] = g;
  s.run_id = testing::run_id(2);
  s.instance = testing::instance_id(2);
  const Table t10 = table(s, 1.08);
  EXPECT_TRUE(gate_failures(t10, {}).empty());  // 8% < the plan's 10%
  GateOptions lower;
  lower.threshold_pct = 5;  // --threshold wins over the plan's
  lower.threshold_given = true;
  EXPECT_EQ(gate_failures(t10, lower).size(), 1u);
  GateOptions zero;
  zero.threshold_given = true;  // --threshold 0 given: no threshold, even against the plan's
  EXPECT_EQ(gate_failures(t10, zero).size(), 1u);
}

TEST_F(Gate, APlanGateWithAMisspeltMetricIsAnError) {
  SyntheticRun s = latency_regression();
  v1::Gate g;
  g.set_metric("wakeup_p99_usec");
  s.gates["fork-all"] = g;
  const Table t = table(s, 1.08);
  try {
    gate_failures(t, {});
    FAIL() << "a misspelt plan gate judged nothing and passed";
  } catch (const CompareError& e) {
    EXPECT_STREQ(e.what(),
                 "case fork-all: the plan's gate.metric wakeup_p99_usec is not a metric of the "
                 "case (metrics: ops_per_s, wakeup_p99_us)");
  }
  GateOptions cli;
  cli.metrics = {"wakeup_p99_us"};  // the command line's metric replaces the plan's
  EXPECT_EQ(gate_failures(t, cli).size(), 1u);
}

TEST(GateReport, SaysWhyOnStderr) {
  std::ostringstream err;
  EXPECT_FALSE(report_gate({}, true, err));
  EXPECT_EQ(err.str(), "");
  EXPECT_TRUE(report_gate({}, false, err));
  EXPECT_EQ(err.str(), "--fail-on regression: a compared run did not finish ok\n");
  std::ostringstream lines;
  EXPECT_TRUE(report_gate(
      {{"fork-all/autogroup-off", "bogo_ops_per_s", -69.61, analysis::Verdict::kRegression, 2, ""}},
      true, lines));
  EXPECT_EQ(lines.str(), "gate: fork-all/autogroup-off bogo_ops_per_s -69.6% (R) [threshold 2%]\n");
}

// A variant at half speed only in its disturbed iterations 1-3.
SyntheticRun disturbed_run() {
  SyntheticRun s;
  s.run_id = testing::run_id(3);
  s.variants = {"baseline", "loaded"};
  s.ops = [](const std::string&, const std::string& v, unsigned i) {
    const double base = 10000 * (1 + 0.005 * jitter(i, v == "baseline" ? 0 : 1));
    return v == "loaded" && i <= 3 ? base * 0.5 : base;
  };
  s.disturbed = {{"loaded", 1}, {"loaded", 2}, {"loaded", 3}};
  return s;
}

TEST_F(Gate, DisturbedIterationsAreLeftOutAndCounted) {
  const store::RunRecord run = stored(disturbed_run());
  const Table t = compare_variants(run);
  EXPECT_EQ(t.rows[0].cells[0].side.iterations, (std::vector<unsigned>{4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(t.rows[0].cells[0].comparison.verdict, analysis::Verdict::kNone);
  ASSERT_EQ(t.runs.size(), 1u);
  EXPECT_EQ(t.runs[0].disturbed, 3u);
  EXPECT_EQ(t.runs[0].left_out, 3u);
  std::ostringstream out;
  report::print_compare_table(t, out);
  EXPECT_NE(
      out.str().find("\nrun r3000000: 3 disturbed iterations left out (--disturbed include to "
                     "count them)\n"),
      std::string::npos)
      << out.str();

  CompareOptions include;
  include.disturbed = DisturbedPolicy::kInclude;
  const Table all = compare_variants(run, include);
  EXPECT_EQ(all.rows[0].cells[0].side.values.size(), 10u);
  EXPECT_EQ(all.runs[0].left_out, 0u);
  EXPECT_EQ(report::disturbed_line(all.runs[0], DisturbedPolicy::kInclude),
            "run r3000000: 3 disturbed iterations counted (--disturbed include)");

  CompareOptions only;
  only.disturbed = DisturbedPolicy::kOnly;
  const Table alone = compare_variants(run, only);
  EXPECT_EQ(alone.rows[0].cells[0].side.iterations, (std::vector<unsigned>{1, 2, 3}));
  EXPECT_TRUE(alone.rows[0].baseline.values.empty());  // no baseline iteration was disturbed
  EXPECT_EQ(report::disturbed_line(alone.runs[0], DisturbedPolicy::kOnly),
            "run r3000000: only its 3 disturbed iterations counted (--disturbed only; 17 others "
            "left out)");
  EXPECT_EQ(parse_disturbed("only"), DisturbedPolicy::kOnly);
  EXPECT_EQ(parse_disturbed("some"), std::nullopt);
  // With no baseline iteration left, the gate has nothing to judge: it fails, saying so.
  const auto failures = gate_failures(alone, {});
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(gate_line(failures[0]),
            "gate: fork-all/loaded ops_per_s not judged: fewer than 2 iterations (n=0 vs 3)");
}

TEST_F(Gate, TheHeaderNamesARunThatFailed) {
  SyntheticRun s = disturbed_run();
  s.run_failed = true;
  s.failed = {{"baseline", 2}};
  const Table t = compare_variants(stored(s));
  ASSERT_EQ(t.runs.size(), 1u);
  EXPECT_EQ(t.runs[0].status, "failed");
  std::ostringstream out;
  report::print_compare_header(t, out);
  EXPECT_NE(out.str().find("\nrun " + testing::run_id(3) +
                           " failed: quiet box: gave up 15 times (19 of 20 iterations ok)\n"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace schedrig::compare
