// Mann–Kendall, Kendall's tau, Theil–Sen and the drift rule.
#include "host/analysis/trend.h"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "host/analysis/descriptive.h"

namespace schedrig::analysis {
namespace {

// Kendall, Rank Correlation Methods (1975), Appendix Table 1: P(S >= s) for
// n = 5 is 0.008, 0.042, 0.117, 0.242, 0.408, 0.592 at s = 10, 8, .., 0
// (exactly 1, 5, 14, 29, 49, 71 of 120 permutations).
TEST(MannKendall, ExactTailMatchesKendallsTable) {
  const double counts[] = {1, 5, 14, 29, 49, 71};
  for (int i = 0; i < 6; ++i) {
    EXPECT_DOUBLE_EQ(mann_kendall_upper_tail(5, 10 - 2 * i), counts[i] / 120) << i;
  }
  EXPECT_DOUBLE_EQ(mann_kendall_upper_tail(5, 11), 0.0);
}

TEST(MannKendall, MonotoneSeriesOfFour) {
  const MannKendall mk = mann_kendall(std::vector<double>{6908.17, 6877.88, 6466.94, 6302.98});
  EXPECT_TRUE(mk.exact);
  EXPECT_DOUBLE_EQ(mk.s, -6.0);
  EXPECT_DOUBLE_EQ(mk.tau, -1.0);
  EXPECT_DOUBLE_EQ(mk.p_value, 2.0 / 24);  // one permutation of 24 each way
}

TEST(MannKendall, TiesUseTauBAndTheNormalApproximation) {
  // y = 1 2 2 3: concordant 5, discordant 0, one tied pair: S = 5,
  // tau-b = 5 / sqrt(6 * 5); Var S = (4*3*13 - 2*1*9) / 18 = 138/18.
  const MannKendall mk = mann_kendall(std::vector<double>{1, 2, 2, 3});
  EXPECT_FALSE(mk.exact);
  EXPECT_DOUBLE_EQ(mk.s, 5.0);
  EXPECT_NEAR(mk.tau, 5 / std::sqrt(30.0), 1e-12);
  EXPECT_NEAR(mk.p_value, std::erfc(4 / std::sqrt(138.0 / 18) / std::sqrt(2.0)), 1e-12);
}

TEST(MannKendall, ConstantSeriesHasNoTrend) {
  const MannKendall mk = mann_kendall(std::vector<double>(8, 3.0));
  EXPECT_DOUBLE_EQ(mk.s, 0.0);
  EXPECT_DOUBLE_EQ(mk.tau, 0.0);
  EXPECT_DOUBLE_EQ(mk.p_value, 1.0);
}

TEST(MannKendall, MergeSortCountMatchesAllPairs) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> value(0, 40);  // many ties
  std::vector<double> y(700);
  for (auto& v : y) v = value(rng);
  double s = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    for (std::size_t j = i + 1; j < y.size(); ++j) s += (y[j] > y[i]) - (y[j] < y[i]);
  }
  EXPECT_DOUBLE_EQ(mann_kendall(y).s, s);
}

TEST(SenSlope, HandWorked) {
  // y = 1 3 2 5: slopes 2, 0.5, 4/3, -1, 1, 3 -> median (1 + 4/3) / 2.
  EXPECT_NEAR(sen_slope(std::vector<double>{1, 3, 2, 5}), (1 + 4.0 / 3) / 2, 1e-15);
  EXPECT_TRUE(std::isnan(sen_slope(std::vector<double>{1})));
}

TEST(SenSlope, LongSeriesUseBlockMediansAndFindTheSameLine) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0, 5);
  std::vector<double> y(5000);
  for (std::size_t i = 0; i < y.size(); ++i)
    y[i] = 1000 + 0.25 * static_cast<double>(i) + noise(rng);
  const double all_pairs = sen_slope(y, y.size());  // 12.5 million slopes
  const double blocked = sen_slope(y);              // 64 block medians
  EXPECT_NEAR(all_pairs, 0.25, 0.001);
  EXPECT_NEAR(blocked, all_pairs, 0.001);
  // Blocks of a clean line: medians on the line, centres at the right places.
  std::vector<double> line(1001);
  for (std::size_t i = 0; i < line.size(); ++i) line[i] = 3.0 * static_cast<double>(i);
  EXPECT_NEAR(sen_slope(line, 10), 3.0, 1e-12);
}

// The example sentence: "+44% over 6 iterations (tau 1.0)". The
// change of a positive series is the ratio of its log-scale line's end to
// its start: a straight line 100 -> 144 bends on that scale (43.6%); a
// geometric climb 100 -> 144 is a straight log line and gives 44% exactly.
TEST(Drift, SteadyClimbIsDrift) {
  const Drift d = detect_drift(std::vector<double>{100, 108.8, 117.6, 126.4, 135.2, 144});
  EXPECT_TRUE(d.present);
  EXPECT_DOUBLE_EQ(d.tau, 1.0);
  EXPECT_NEAR(d.slope, 8.8, 1e-12);
  // The median pairwise log slope is that of the pair (2, 5): ln(135.2 / 108.8) / 3.
  EXPECT_NEAR(d.change_pct, 100 * (std::pow(135.2 / 108.8, 5.0 / 3) - 1), 1e-9);
  EXPECT_DOUBLE_EQ(d.p_value, 2.0 / 720);
  std::vector<double> geometric;
  for (int i = 0; i < 6; ++i) geometric.push_back(100 * std::pow(1.44, i / 5.0));
  EXPECT_NEAR(detect_drift(geometric).change_pct, 44.0, 1e-9);
}

// A fall towards zero: the raw line's change, 100 b (n - 1) / |a + b|,
// overshoots -100% (the same series ending at 0, which has no log scale,
// shows it); as a ratio it is -99%, never below -100%.
TEST(Drift, AFallOfAPositiveSeriesIsARatioNeverBelowMinus100) {
  const std::vector<double> y = {100, 60, 30, 10, 3, 1};
  const Drift d = detect_drift(y);
  EXPECT_TRUE(d.present);
  EXPECT_GT(d.change_pct, -100.0);
  EXPECT_LT(d.change_pct, -98.0);
  // With a zero in the series there is no log scale: the raw line.
  const Drift raw = detect_drift(std::vector<double>{100, 60, 30, 10, 3, 0});
  EXPECT_LT(raw.change_pct, -100.0);
}

TEST(Drift, ThreeIterationsCannotShowDrift) {
  // Perfectly monotone, but 1 in 3 of all orders is monotone: p = 1/3.
  const Drift d = detect_drift(std::vector<double>{1210.563378, 1036.910557, 843.296125});
  EXPECT_DOUBLE_EQ(d.tau, -1.0);
  EXPECT_NEAR(d.p_value, 1.0 / 3, 1e-12);
  EXPECT_LT(d.change_pct, -25);
  EXPECT_FALSE(d.present);
}

TEST(Drift, SmallSteadyCreepIsBelowTheFloor) {
  std::vector<double> y;
  for (int i = 0; i < 20; ++i) y.push_back(1000 + i);  // +1.9% over the series
  const Drift d = detect_drift(y);
  EXPECT_LT(d.p_value, 1e-6);
  EXPECT_NEAR(d.change_pct, 1.9, 1e-4);  // the log-scale line: 1.89996%
  EXPECT_FALSE(d.present);
}

TEST(Drift, NoisyFlatSeriesIsNotDrift) {
  const Drift d = detect_drift(std::vector<double>{97.4, 105.1, 97.7, 96.8, 90.7, 97.9, 111.1,
                                                   104.2, 110.4, 102.5, 103.9, 101.9});
  EXPECT_FALSE(d.present);
}

}  // namespace
}  // namespace schedrig::analysis
