// `schedrig trend`'s model (host/compare/trend_table.h) over runs in a real
// store: medians with intervals, verdicts against the point before, change
// points that the next run confirms, and points per kernel.
#include "host/compare/trend_table.h"

#include <algorithm>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/host/compare/synthetic_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::compare {
namespace {

using analysis::Verdict;
using testing::jitter;
using testing::SyntheticRun;

// Run n (0-based) of a history: 10 iterations around `level` (0.5% jitter).
SyntheticRun history_run(unsigned n, double level, const std::string& kernel) {
  SyntheticRun s;
  s.run_id = fmt::format("{:08x}-1111-4111-8111-{:012x}", n + 1, n + 1);
  s.instance = fmt::format("0b5e8f2a-1c2d-4e3f-8a9b-{:012x}", n + 1);
  s.kernel = kernel;
  s.variants = {"baseline"};
  s.ops = [level, n](const std::string&, const std::string&, unsigned i) {
    return level * (1 + 0.005 * jitter(i, n));
  };
  return s;
}

class Trend_ : public ::testing::Test {
 protected:
  // Runs at `levels` (one each, oldest first), kernel "k<level>".
  std::vector<store::RunRecord> history(const std::vector<double>& levels) {
    store::Store db(dir_.file("schedrig.db"));
    for (unsigned n = 0; n < levels.size(); ++n) {
      testing::ingest(
          db, testing::synthetic_run(history_run(n, levels[n], fmt::format("k{}", levels[n]))));
    }
    auto runs = db.runs("", {.sample_summaries = false, .histograms = false});
    std::sort(runs.begin(), runs.end(),
              [](const auto& a, const auto& b) { return a.run_id < b.run_id; });
    return runs;
  }
  testing::TempDir dir_;
};

TEST_F(Trend_, ALevelShiftThatStaysIsOneChangePoint) {
  const auto runs = history({10000, 10000, 8000, 8000, 8000});
  TrendOptions o;
  o.case_name = "fork-all";
  const Trend t = make_trend(runs, o);
  EXPECT_EQ(t.metric, "ops_per_s");
  EXPECT_TRUE(t.higher_is_better);
  ASSERT_EQ(t.points.size(), 5u);
  EXPECT_FALSE(t.points[0].has_previous);
  EXPECT_EQ(t.points[0].values.size(), 10u);
  EXPECT_NEAR(t.points[0].median, 10000, 60);
  EXPECT_LE(t.points[0].ci_lo, t.points[0].median);
  EXPECT_GE(t.points[0].ci_hi, t.points[0].median);
  EXPECT_NE(t.points[1].vs_previous.verdict, Verdict::kRegression);
  EXPECT_EQ(t.points[2].vs_previous.verdict, Verdict::kRegression);
  EXPECT_NEAR(t.points[2].vs_previous.change_pct, -20, 1);
  std::vector<bool> change;
  for (const auto& p : t.points) change.push_back(p.change_point);
  EXPECT_EQ(change, (std::vector<bool>{false, false, true, false, false}));
}

TEST_F(Trend_, OneOddRunIsNoChangePoint) {
  const auto runs = history({10000, 10000, 8000, 10000, 10000});
  TrendOptions o;
  o.case_name = "fork-all";
  const Trend t = make_trend(runs, o);
  EXPECT_EQ(t.points[2].vs_previous.verdict, Verdict::kRegression);
  EXPECT_EQ(t.points[3].vs_previous.verdict, Verdict::kImprovement);
  for (const auto& p : t.points) EXPECT_FALSE(p.change_point) << p.label;
}

TEST_F(Trend_, ByKernelPoolsTheRunsOfAKernel) {
  const auto runs = history({10000, 10000, 8000, 8000});
  TrendOptions o;
  o.case_name = "fork-all";
  o.by_kernel = true;
  const Trend t = make_trend(runs, o);
  ASSERT_EQ(t.points.size(), 2u);
  EXPECT_EQ(t.points[0].label, "k10000");
  EXPECT_EQ(t.points[0].run_ids.size(), 2u);
  EXPECT_EQ(t.points[0].values.size(), 20u);
  EXPECT_EQ(t.points[1].vs_previous.verdict, Verdict::kRegression);
}

TEST_F(Trend_, ByKernelGroupsByTheKernelLabelWhenRunsHaveOne) {
  auto runs = history({10000, 10000, 8000});
  runs[0].labels["kernel"] = "fake-a";
  runs[1].labels["kernel"] = "fake-b";
  runs[2].labels["kernel"] = "fake-a";
  TrendOptions o;
  o.case_name = "fork-all";
  o.by_kernel = true;
  const Trend t = make_trend(runs, o);
  ASSERT_EQ(t.points.size(), 2u);
  EXPECT_EQ(t.points[0].label, "fake-a");
  EXPECT_EQ(t.points[0].run_ids.size(), 2u);
  EXPECT_EQ(t.points[1].label, "fake-b");
  EXPECT_EQ(kernel_of(runs[1]), "fake-b");
  runs[1].labels.erase("kernel");
  EXPECT_EQ(kernel_of(runs[1]), "k10000");  // the release, without the label
}

TEST_F(Trend_, DisturbedIterationsLeftOutAreCountedAndShortIntervalsSaySo) {
  store::Store db(dir_.file("schedrig.db"));
  SyntheticRun s = history_run(0, 10000, "k");
  s.iterations = 4;
  s.disturbed = {{"baseline", 1}, {"baseline", 3}};
  testing::ingest(db, testing::synthetic_run(s));
  const auto runs = db.runs("", {.sample_summaries = false, .histograms = false});
  TrendOptions o;
  o.case_name = "fork-all";
  Trend t = make_trend(runs, o);
  ASSERT_EQ(t.points.size(), 1u);
  EXPECT_EQ(t.points[0].values.size(), 2u);
  EXPECT_EQ(t.points[0].left_out, 2u);
  EXPECT_NEAR(t.points[0].ci_coverage, 0.5, 1e-12);  // the range of 2 values
  o.disturbed = DisturbedPolicy::kInclude;
  t = make_trend(runs, o);
  EXPECT_EQ(t.points[0].values.size(), 4u);
  EXPECT_EQ(t.points[0].left_out, 0u);
}

TEST_F(Trend_, UnknownCaseOrMetricIsRefusedNamingWhatThereIs) {
  const auto runs = history({10000});
  TrendOptions o;
  o.case_name = "nope";
  EXPECT_THROW(make_trend(runs, o), CompareError);
  o.case_name = "fork-all";
  o.metric = "bogus";
  try {
    make_trend(runs, o);
    ADD_FAILURE() << "no throw";
  } catch (const CompareError& e) {
    EXPECT_NE(std::string(e.what()).find("metrics: ops_per_s, wakeup_p99_us"), std::string::npos)
        << e.what();
  }
  o.metric = "";
  o.variant = "nope";
  try {
    make_trend(runs, o);
    ADD_FAILURE() << "no throw";
  } catch (const CompareError& e) {
    EXPECT_NE(std::string(e.what()).find("no variant 'nope' in these runs (variants: baseline)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace schedrig::compare
