// Welch's t-test against independently computed references.
#include "host/analysis/welch.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace schedrig::analysis {
namespace {

// Wikipedia, "Welch's t-test", example 1 (samples A1 and A2): t = 2.46,
// nu = 24.99, p = 0.021. Recomputed to more digits with python3's
// statistics module (means, variances) and mpmath (Student t tail as the
// regularized incomplete beta I_{df/(df+t^2)}(df/2, 1/2), 30 digits):
// t = 2.455356398286006, df = 24.98852929023142, p = 0.021378001462866985,
// 95% interval of the difference [0.34923706619240624, 3.9840962671409295].
TEST(Welch, WikipediaExampleOne) {
  const std::vector<double> a1 = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                                  21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
  const std::vector<double> a2 = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                                  24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
  const WelchResult r = welch_t_test(a1, a2);
  EXPECT_NEAR(r.diff, 2.166666666666668, 1e-12);
  EXPECT_NEAR(r.t, 2.455356398286006, 1e-9);
  EXPECT_NEAR(r.df, 24.98852929023142, 1e-9);
  EXPECT_NEAR(r.p_value, 0.021378001462866985, 1e-9);
  EXPECT_NEAR(r.lo, 0.34923706619240624, 1e-8);
  EXPECT_NEAR(r.hi, 3.9840962671409295, 1e-8);
}

// Scale does not change t or df: the example times 1e80 (whose variances
// squared overflow a double) gives the same test.
TEST(Welch, HugeValuesGiveTheSameTest) {
  std::vector<double> a1 = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                            21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
  std::vector<double> a2 = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                            24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
  for (double& v : a1) v *= 1e80;
  for (double& v : a2) v *= 1e80;
  const WelchResult r = welch_t_test(a1, a2);
  EXPECT_NEAR(r.t, 2.455356398286006, 1e-9);
  EXPECT_NEAR(r.df, 24.98852929023142, 1e-9);
  EXPECT_NEAR(r.p_value, 0.021378001462866985, 1e-9);
  // The attacker's case: one side constant-ish, the other around 1e80.
  const std::vector<double> b = {-1, 1e80, 2e80}, x = {1, 2, 3};
  const WelchResult q = welch_t_test(b, x);
  EXPECT_TRUE(std::isfinite(q.df));
  EXPECT_GT(q.p_value, 0.05);
  // A mean that overflows: no p-value, no throw.
  const std::vector<double> top = {1.7e308, 1.7e308, 1.6e308};
  EXPECT_TRUE(std::isnan(welch_t_test(top, x).p_value));
}

// The fixture vondra_pgbench_e5_rw_s2500_c32 (baseline vs k3.10.101, n = 3
// each) on log values; its meta file reads "Welch t=2.3, p~0.1". python3 +
// mpmath as above: t = 2.31772928881153, df = 3.033502118402159,
// p = 0.10232977575473633, interval [-0.00788077967048053, 0.05111656786707399].
TEST(Welch, PgbenchThreeAgainstThreeOnLogs) {
  std::vector<double> b = {11329.86189, 11412.747712, 11241.987942};
  std::vector<double> v = {11421.816045, 11556.007617, 11751.155239};
  for (auto& x : b) x = std::log(x);
  for (auto& x : v) x = std::log(x);
  const WelchResult r = welch_t_test(b, v);
  EXPECT_NEAR(r.t, 2.31772928881153, 1e-9);
  EXPECT_NEAR(r.df, 3.033502118402159, 1e-9);
  EXPECT_NEAR(r.p_value, 0.10232977575473633, 1e-9);
  EXPECT_NEAR(r.lo, -0.00788077967048053, 1e-9);
  EXPECT_NEAR(r.hi, 0.05111656786707399, 1e-9);
}

TEST(Welch, ConstantSamples) {
  const WelchResult same = welch_t_test(std::vector<double>{5, 5, 5}, std::vector<double>{5, 5});
  EXPECT_DOUBLE_EQ(same.p_value, 1.0);
  EXPECT_DOUBLE_EQ(same.lo, 0.0);
  EXPECT_DOUBLE_EQ(same.hi, 0.0);
  const WelchResult apart = welch_t_test(std::vector<double>{5, 5, 5}, std::vector<double>{4, 4});
  EXPECT_DOUBLE_EQ(apart.p_value, 0.0);
  EXPECT_DOUBLE_EQ(apart.diff, -1.0);
  EXPECT_TRUE(std::isinf(apart.t));
}

TEST(Welch, OneConstantSideUsesTheOthersDegreesOfFreedom) {
  const WelchResult r =
      welch_t_test(std::vector<double>{10, 10, 10, 10}, std::vector<double>{11, 12, 13});
  EXPECT_DOUBLE_EQ(r.df, 2.0);
  EXPECT_DOUBLE_EQ(r.diff, 2.0);
  EXPECT_DOUBLE_EQ(r.se, std::sqrt(1.0 / 3));
}

TEST(Welch, NeedsTwoValuesPerSide) {
  EXPECT_THROW(welch_t_test(std::vector<double>{1}, std::vector<double>{1, 2}),
               std::invalid_argument);
}

}  // namespace
}  // namespace schedrig::analysis
