// The boot as the unit: Welch's t on the logs of per-boot medians, two boots
// per side, a single odd boot, too few boots.
#include "host/analysis/boots.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "host/analysis/welch.h"

namespace schedrig::analysis {
namespace {

using Boots = std::vector<std::vector<double>>;

// Concatenation of every boot's values (the iteration-level view).
std::vector<double> flatten(const Boots& boots) {
  std::vector<double> out;
  for (const auto& b : boots) out.insert(out.end(), b.begin(), b.end());
  return out;
}

TEST(Boots, TwoBootsPerSideCanReachSignificanceWhenTight) {
  // Boot medians 100, 100.4 vs 95, 95.3: a tight -5%.
  const Boots base = {{99.8, 100, 100.1}, {100.4, 100.5, 100.3}};
  const Boots variant = {{95, 94.9, 95.1}, {95.3, 95.2, 95.4}};
  const BootComparison r = compare_boots(base, variant, {});
  EXPECT_EQ(r.baseline_boots, 2u);
  EXPECT_EQ(r.variant_boots, 2u);
  EXPECT_EQ(r.verdict, Verdict::kRegression);
  // By hand: the geometric means of the medians.
  const double expected = 100 * (std::sqrt(95 * 95.3) / std::sqrt(100 * 100.4) - 1);
  EXPECT_NEAR(r.change_pct, expected, 1e-9);
  EXPECT_LT(r.p_value, 0.05);
  EXPECT_LT(r.ci_hi_pct, 0);
  // The same test by hand on the logs: df from the boots (2 vs 2: 1 to 2).
  const WelchResult w = welch_t_test(std::vector<double>{std::log(100.0), std::log(100.4)},
                                     std::vector<double>{std::log(95.0), std::log(95.3)});
  EXPECT_NEAR(r.p_value, w.p_value, 1e-12);
  EXPECT_GE(w.df, 1.0);
  EXPECT_LE(w.df, 2.0);
}

TEST(Boots, TwoBootsPerSideThatDisagreeAreNotAVerdict) {
  // -5% but the boots of each side 3% apart: |t| about 2.4 < t(0.975, 2) = 4.30.
  const Boots base = {{100}, {103}};
  const Boots variant = {{95}, {98}};
  const BootComparison r = compare_boots(base, variant, {});
  EXPECT_EQ(r.verdict, Verdict::kNone);
  EXPECT_GT(r.p_value, 0.05);
}

// Ten iterations around `level`, spread +-0.25%.
std::vector<double> boot_at(double level) {
  std::vector<double> out;
  for (int i = 0; i < 10; ++i) out.push_back(level * (1 + 0.0005 * (i % 5 - 2) + 0.0001 * i));
  return out;
}

TEST(Boots, OneOddBootFlipsTheIterationLevelTestButNotTheBootLevelOne) {
  // Three boots per side at ~100; the variant's third boot sits 8% low.
  const Boots base = {boot_at(100), boot_at(100.2), boot_at(99.9)};
  const Boots variant = {boot_at(100.1), boot_at(99.9), boot_at(92)};
  const Comparison iterations = compare_samples(flatten(base), flatten(variant));
  EXPECT_EQ(iterations.verdict, Verdict::kRegression);  // 10 of 30 below: a cliff
  const BootComparison boots = compare_boots(base, variant, {});
  EXPECT_EQ(boots.verdict, Verdict::kNone);
  // The odd boot inflates its side's spread as much as it moves its mean:
  // when the other boots agree, |t| <= 1, so p >= 0.32 whatever its size.
  EXPECT_GT(boots.p_value, 0.3);
}

TEST(Boots, FewerThanTwoBootsIsInsufficient) {
  const Boots one = {{100, 101, 99}};
  const Boots two = {{90, 91}, {}, {92}};  // the empty boot is not counted
  const BootComparison r = compare_boots(one, two, {});
  EXPECT_EQ(r.verdict, Verdict::kInsufficient);
  EXPECT_EQ(r.baseline_boots, 1u);
  EXPECT_EQ(r.variant_boots, 2u);
  EXPECT_EQ(r.note, "fewer than 2 boots per side (n=1 vs 2)");
  EXPECT_TRUE(std::isnan(r.p_value));
  EXPECT_EQ(boot_medians(two), (std::vector<double>{90.5, 92}));
}

TEST(Boots, LowerIsBetterAndThreshold) {
  const Boots base = {{100}, {100.4}, {100.2}};
  const Boots variant = {{95}, {95.3}, {95.1}};
  CompareOptions o;
  o.higher_is_better = false;
  EXPECT_EQ(compare_boots(base, variant, o).verdict, Verdict::kImprovement);
  o.threshold_pct = 10;
  const BootComparison r = compare_boots(base, variant, o);
  EXPECT_EQ(r.verdict, Verdict::kNone);
  EXPECT_EQ(r.note, "significant, but below the 10% threshold");
}

}  // namespace
}  // namespace schedrig::analysis
