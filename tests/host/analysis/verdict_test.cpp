// Verdicts: the auto rule at n = 3 and n = 10, direction, ties, constant
// series, thresholds and the other methods.
#include "host/analysis/verdict.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace schedrig::analysis {
namespace {

const std::vector<double> kBase10 = {100.2, 99.1,  101.3, 98.7,  100.9,
                                     99.8,  100.4, 99.5,  101.1, 100.0};

std::vector<double> scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out;
  for (double x : v) out.push_back(x * factor);
  return out;
}

TEST(Verdict, ClearImprovementAtTen) {
  // The same noise, 5% higher: complete separation, exact p = 2 / C(20, 10).
  const Comparison c = compare_samples(kBase10, scaled(kBase10, 1.05));
  EXPECT_EQ(c.test, StatTest::kMannWhitney);
  EXPECT_FALSE(c.parametric);
  EXPECT_EQ(c.verdict, Verdict::kImprovement);
  EXPECT_NEAR(c.change_pct, 5.0, 1e-9);
  EXPECT_NEAR(c.p_value, 2.0 / 184756, 1e-15);
  EXPECT_LT(c.ci_lo_pct, 5.0);
  EXPECT_GT(c.ci_hi_pct, 5.0);
  EXPECT_GT(c.ci_lo_pct, 0.0);
  EXPECT_EQ(c.note, "");
}

// The rank test's interval for positive values is a ratio (Hodges-Lehmann
// on log values): a latency that drops from a heavy tail to a fraction can
// never show "-150%". The same data scaled by exactly 1/4 gives -75% inside
// the interval, and the interval stays above -100%.
TEST(Verdict, RankIntervalOfPositiveValuesIsARatio) {
  const std::vector<double> base = {2179, 1100, 3900, 1800, 5200};  // heavy-tailed
  const Comparison c = compare_samples(base, scaled(base, 0.25));
  EXPECT_EQ(c.test, StatTest::kMannWhitney);
  EXPECT_NEAR(c.change_pct, -75.0, 1e-9);
  EXPECT_GT(c.ci_lo_pct, -100.0);
  EXPECT_LE(c.ci_lo_pct, -75.0);
  EXPECT_GE(c.ci_hi_pct, -75.0);
  // With a zero in the data there is no ratio: the raw shift, as % of the median.
  std::vector<double> with_zero = base;
  with_zero[0] = 0;
  const Comparison raw = compare_samples(with_zero, scaled(with_zero, 0.25));
  EXPECT_EQ(raw.test, StatTest::kMannWhitney);
  EXPECT_LT(raw.ci_lo_pct, raw.ci_hi_pct);
}

TEST(Verdict, ClearRegressionAtTen) {
  const Comparison c = compare_samples(kBase10, scaled(kBase10, 0.95));
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  EXPECT_NEAR(c.change_pct, -5.0, 1e-9);
  EXPECT_LT(c.ci_hi_pct, 0.0);
}

TEST(Verdict, NoChangeAtTen) {
  const std::vector<double> again = {99.9,  100.6, 99.3, 100.8, 98.9,
                                     101.0, 100.1, 99.6, 100.3, 99.7};
  const Comparison c = compare_samples(kBase10, again);
  EXPECT_EQ(c.test, StatTest::kMannWhitney);
  EXPECT_EQ(c.verdict, Verdict::kNone);
  EXPECT_GT(c.p_value, 0.5);
  EXPECT_LT(c.ci_lo_pct, 0.0);
  EXPECT_GT(c.ci_hi_pct, 0.0);
}

TEST(Verdict, TightMinusFivePercentAtThreeIsARegression) {
  const Comparison c =
      compare_samples(std::vector<double>{100, 100.5, 99.8}, std::vector<double>{95.1, 94.8, 95.3});
  EXPECT_EQ(c.test, StatTest::kWelchLog);
  EXPECT_TRUE(c.parametric);
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  EXPECT_NEAR(c.change_pct, -4.9, 1e-9);
  EXPECT_LT(c.p_value, 0.001);
  EXPECT_NE(c.note.find("parametric: Welch's t on log values from few iterations (n=3 vs 3)"),
            std::string::npos)
      << c.note;
}

TEST(Verdict, ClearImprovementAtThree) {
  const Comparison c =
      compare_samples(std::vector<double>{100, 101, 99.5}, std::vector<double>{105, 106, 104.8});
  EXPECT_EQ(c.test, StatTest::kWelchLog);
  EXPECT_EQ(c.verdict, Verdict::kImprovement);
  EXPECT_GT(c.ci_lo_pct, 0.0);
}

TEST(Verdict, NoChangeAtThree) {
  const Comparison c =
      compare_samples(std::vector<double>{100, 103, 98}, std::vector<double>{101, 99, 102});
  EXPECT_EQ(c.verdict, Verdict::kNone);
  EXPECT_GT(c.p_value, 0.5);
}

TEST(Verdict, LowerIsBetterFlipsTheMeaning) {
  CompareOptions latency;
  latency.higher_is_better = false;
  // Wakeup latency in us: lower after the change.
  const Comparison faster = compare_samples(kBase10, scaled(kBase10, 0.95), latency);
  EXPECT_EQ(faster.verdict, Verdict::kImprovement);
  const Comparison slower = compare_samples(kBase10, scaled(kBase10, 1.05), latency);
  EXPECT_EQ(slower.verdict, Verdict::kRegression);
  EXPECT_NEAR(slower.change_pct, 5.0, 1e-9);  // the change itself keeps its sign
}

TEST(Verdict, TiesFallBackToTheNormalApproximation) {
  // Integer-valued counts with ties across both sides.
  const Comparison c = compare_samples(std::vector<double>{10, 11, 11, 12, 12, 12, 13},
                                       std::vector<double>{12, 13, 13, 14, 14, 15, 15});
  EXPECT_EQ(c.test, StatTest::kMannWhitney);
  EXPECT_EQ(c.verdict, Verdict::kImprovement);
  EXPECT_GT(c.p_value, 0.001);
  EXPECT_LT(c.p_value, 0.05);
  // Median 12 -> 14: +16.67%.
  EXPECT_NEAR(c.change_pct, 100.0 * 2 / 12, 1e-9);
}

TEST(Verdict, ConstantSeriesNeverDivideByZero) {
  const std::vector<double> flat(5, 250.0);
  const Comparison same = compare_samples(flat, flat);
  EXPECT_EQ(same.verdict, Verdict::kNone);
  EXPECT_DOUBLE_EQ(same.change_pct, 0.0);
  EXPECT_DOUBLE_EQ(same.p_value, 1.0);
  EXPECT_DOUBLE_EQ(same.ci_lo_pct, 0.0);
  EXPECT_DOUBLE_EQ(same.ci_hi_pct, 0.0);

  const Comparison same3 =
      compare_samples(std::vector<double>(3, 7.0), std::vector<double>(3, 7.0));
  EXPECT_EQ(same3.verdict, Verdict::kNone);
  EXPECT_DOUBLE_EQ(same3.p_value, 1.0);

  const Comparison lower3 =
      compare_samples(std::vector<double>(3, 100.0), std::vector<double>(3, 90.0));
  EXPECT_EQ(lower3.verdict, Verdict::kRegression);
  EXPECT_DOUBLE_EQ(lower3.p_value, 0.0);
  EXPECT_NEAR(lower3.ci_lo_pct, -10.0, 1e-9);
  EXPECT_NEAR(lower3.ci_hi_pct, -10.0, 1e-9);

  const Comparison zeros =
      compare_samples(std::vector<double>(4, 0.0), std::vector<double>(4, 0.0));
  EXPECT_TRUE(std::isnan(zeros.change_pct));
  EXPECT_EQ(zeros.verdict, Verdict::kNone);
  EXPECT_NE(zeros.note.find("baseline median is 0"), std::string::npos) << zeros.note;
  EXPECT_NE(zeros.note.find("raw values"), std::string::npos) << zeros.note;
}

TEST(Verdict, FewerThanTwoIterationsIsInsufficient) {
  const Comparison c = compare_samples(std::vector<double>{100}, std::vector<double>{120, 121});
  EXPECT_EQ(c.verdict, Verdict::kInsufficient);
  EXPECT_EQ(c.test, StatTest::kNone);
  EXPECT_NEAR(c.change_pct, 20.5, 1e-9);
  EXPECT_TRUE(std::isnan(c.p_value));
  EXPECT_TRUE(std::isnan(c.ci_lo_pct));
  EXPECT_EQ(c.note, "fewer than 2 iterations (n=1 vs 2)");
  EXPECT_EQ(mark(c.verdict), "?");
}

// +1.5%: Mann-Whitney p 0.0021. (+1% gives p 0.029, under 0.05 but not
// under 0.025, the rank test's share beside the cliff: no longer significant.)
TEST(Verdict, ThresholdIgnoresSmallSignificantChanges) {
  CompareOptions o;
  o.threshold_pct = 2;
  const Comparison c = compare_samples(kBase10, scaled(kBase10, 1.015), o);
  EXPECT_TRUE(c.significant);
  EXPECT_EQ(c.verdict, Verdict::kNone);
  EXPECT_NE(c.note.find("below the 2% threshold"), std::string::npos) << c.note;
  o.threshold_pct = 0.5;
  EXPECT_EQ(compare_samples(kBase10, scaled(kBase10, 1.015), o).verdict, Verdict::kImprovement);
  EXPECT_FALSE(compare_samples(kBase10, scaled(kBase10, 1.01)).significant);
}

TEST(Verdict, ForcedRankTestAtThreeCannotReachSignificance) {
  CompareOptions o;
  o.method = Method::kMannWhitney;
  const Comparison c = compare_samples(std::vector<double>{100, 100.5, 99.8},
                                       std::vector<double>{95.1, 94.8, 95.3}, o);
  EXPECT_EQ(c.test, StatTest::kMannWhitney);
  EXPECT_DOUBLE_EQ(c.p_value, 0.1);  // 3 vs 3 bottoms out at 0.10
  EXPECT_EQ(c.verdict, Verdict::kNone);
  EXPECT_NE(c.note.find("cannot reach 95%"), std::string::npos) << c.note;
}

TEST(Verdict, CiOverlapMarksOnlyWhenTheIntervalsAreApart) {
  CompareOptions o;
  o.method = Method::kCiOverlap;
  // Means 100 and 110, SD 1 each: 100 +- 1.96 and 110 +- 1.96 are apart.
  const Comparison apart =
      compare_samples(std::vector<double>{99, 100, 101}, std::vector<double>{109, 110, 111}, o);
  EXPECT_EQ(apart.test, StatTest::kCiOverlap);
  EXPECT_TRUE(apart.parametric);
  EXPECT_EQ(apart.verdict, Verdict::kImprovement);
  EXPECT_TRUE(std::isnan(apart.p_value));
  const double z = 1.959963984540054;
  EXPECT_NEAR(apart.ci_lo_pct, (110 - z - (100 + z)), 1e-9);  // per cent of 100
  EXPECT_NEAR(apart.ci_hi_pct, (110 + z - (100 - z)), 1e-9);
  // SD 3 each: 100 +- 5.9 and 110 +- 5.9 overlap, although Welch would call it.
  const Comparison overlap =
      compare_samples(std::vector<double>{97, 100, 103}, std::vector<double>{107, 110, 113}, o);
  EXPECT_EQ(overlap.verdict, Verdict::kNone);
  EXPECT_EQ(compare_samples(std::vector<double>{97, 100, 103}, std::vector<double>{107, 110, 113})
                .verdict,
            Verdict::kImprovement);
}

TEST(Verdict, ForcedWelchOnManyIterationsHasNoFewIterationsNote) {
  CompareOptions o;
  o.method = Method::kWelch;
  const Comparison c = compare_samples(kBase10, scaled(kBase10, 1.05), o);
  EXPECT_EQ(c.test, StatTest::kWelchLog);
  EXPECT_EQ(c.verdict, Verdict::kImprovement);
  EXPECT_NEAR(c.ci_lo_pct, 5.0, 1.0);
  EXPECT_EQ(c.note, "");
}

TEST(Verdict, SeriesNotesNameBimodalAndDriftingSides) {
  const std::vector<double> seed = {127553, 124467, 38047, 38120,  38315,
                                    37983,  38210,  38150, 126802, 125893};
  const std::vector<double> steady = {126500, 125100, 127900, 126200, 128400,
                                      125600, 127300, 126900, 125300, 128100};
  const Comparison c = compare_series(steady, seed);
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  EXPECT_NE(c.note.find("variant bimodal (2 flips)"), std::string::npos) << c.note;
  EXPECT_EQ(c.note.find("baseline"), std::string::npos) << c.note;
  const Comparison d = compare_series(std::vector<double>{100, 108.8, 117.6, 126.4, 135.2, 144},
                                      std::vector<double>{130, 131, 129, 130, 131, 129});
  EXPECT_NE(d.note.find("baseline drift +44%"), std::string::npos) << d.note;
  const Comparison e =
      compare_series(std::vector<double>{100, 101, 99, 100, 101, 80, 81, 80, 79, 80},
                     std::vector<double>{100, 101, 99, 100, 101, 99, 100, 101, 99, 100});
  EXPECT_NE(e.note.find("baseline bimodal (1 flip)"), std::string::npos) << e.note;
}

TEST(Verdict, MethodWordsRoundTrip) {
  for (Method m : {Method::kAuto, Method::kMannWhitney, Method::kWelch, Method::kCiOverlap}) {
    EXPECT_EQ(parse_method(to_string(m)), m);
  }
  EXPECT_FALSE(parse_method("t-test").has_value());
  EXPECT_EQ(to_string(Verdict::kImprovement), "improvement");
  EXPECT_EQ(mark(Verdict::kRegression), "(R)");
  EXPECT_EQ(to_string(StatTest::kWelchLog), "welch-log");
}

}  // namespace
}  // namespace schedrig::analysis
