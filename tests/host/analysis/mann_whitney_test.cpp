// Mann–Whitney U against published tables and a published example.
#include "host/analysis/mann_whitney.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace schedrig::analysis {
namespace {

// Lower critical values of U, two-tailed, from the standard table printed in
// most statistics texts (e.g. the "Critical values of the Mann-Whitney U"
// table, alpha = .05 and .01 two-tailed): reject when min(U, mn - U) <= c.
// "-" in the table (no decision possible) is -1 here.
struct Critical {
  unsigned m, n;
  int alpha05, alpha01;
};
const Critical kTable[] = {
    {2, 7, -1, -1}, {2, 8, 0, -1},    {3, 3, -1, -1},   {3, 5, 0, -1},    {3, 6, 1, -1},
    {3, 7, 1, -1},  {3, 8, 2, -1},    {4, 4, 0, -1},    {4, 5, 1, -1},    {4, 6, 2, 0},
    {4, 8, 4, 1},   {5, 5, 2, 0},     {5, 6, 3, 1},     {5, 7, 5, 1},     {5, 8, 6, 2},
    {5, 10, 8, 4},  {6, 6, 5, 2},     {6, 8, 8, 4},     {7, 7, 8, 4},     {8, 8, 13, 7},
    {9, 9, 17, 11}, {10, 10, 23, 16}, {12, 12, 37, 27}, {15, 15, 64, 51}, {20, 20, 127, 105},
};

TEST(MannWhitney, CriticalValuesMatchThePublishedTable) {
  for (const Critical& row : kTable) {
    EXPECT_EQ(mann_whitney_critical_value(row.m, row.n, 0.05), row.alpha05)
        << row.m << " vs " << row.n << " at .05";
    EXPECT_EQ(mann_whitney_critical_value(row.n, row.m, 0.05), row.alpha05)
        << row.n << " vs " << row.m << " at .05 (symmetric)";
    EXPECT_EQ(mann_whitney_critical_value(row.m, row.n, 0.01), row.alpha01)
        << row.m << " vs " << row.n << " at .01";
  }
}

// Mann & Whitney (1947), Table I: P(U <= u) for n = m = 3 and n = m = 4,
// printed to three decimals.
TEST(MannWhitney, ExactProbabilitiesMatchMannWhitney1947TableI) {
  const double three[] = {0.050, 0.100, 0.200, 0.350, 0.500};
  for (int u = 0; u < 5; ++u) EXPECT_NEAR(mann_whitney_cdf(3, 3, u), three[u], 5e-4) << u;
  const double four[] = {0.014, 0.029, 0.057, 0.100, 0.171, 0.243, 0.343, 0.443, 0.557};
  for (int u = 0; u < 9; ++u) EXPECT_NEAR(mann_whitney_cdf(4, 4, u), four[u], 5e-4) << u;
  // Exactly: one arrangement of C(6,3) = 20 gives U = 0.
  EXPECT_DOUBLE_EQ(mann_whitney_cdf(3, 3, 0), 1.0 / 20);
  EXPECT_DOUBLE_EQ(mann_whitney_cdf(5, 5, 2), 4.0 / 252);
  EXPECT_DOUBLE_EQ(mann_whitney_cdf(4, 4, -1), 0.0);
  EXPECT_DOUBLE_EQ(mann_whitney_cdf(4, 4, 16), 1.0);
}

TEST(MannWhitney, CountsSumToTheBinomialCoefficient) {
  const std::vector<double> counts = mann_whitney_counts(10, 12);
  ASSERT_EQ(counts.size(), 121u);
  double total = 0;
  for (double c : counts) total += c;
  EXPECT_DOUBLE_EQ(total, 646646.0);  // C(22, 10)
  EXPECT_DOUBLE_EQ(counts.front(), 1.0);
  EXPECT_DOUBLE_EQ(counts.back(), 1.0);
  EXPECT_DOUBLE_EQ(counts[1], 1.0);
  EXPECT_DOUBLE_EQ(counts[2], 2.0);
}

// The example of R's ?wilcox.test (Hollander & Wolfe 1973, p. 69): W = 35,
// exact one-sided p = 0.1272, so two-sided 0.2544.
TEST(MannWhitney, ReproducesTheHollanderWolfeExampleOfRsDocumentation) {
  const std::vector<double> x = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
  const std::vector<double> y = {1.15, 0.88, 0.90, 0.74, 1.21};
  const MannWhitneyResult r = mann_whitney(y, x);  // U of x over y is R's W
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_y, 35.0);
  EXPECT_DOUBLE_EQ(r.u_x, 15.0);
  EXPECT_NEAR(r.p_value, 0.2544, 1e-4);
  EXPECT_DOUBLE_EQ(r.p_value, 2 * 382.0 / 3003);  // P(U >= 35) = 382 of C(15, 5) = 3003
}

TEST(MannWhitney, CompleteSeparationOfFiveAndFive) {
  const MannWhitneyResult r =
      mann_whitney(std::vector<double>{1, 2, 3, 4, 5}, std::vector<double>{6, 7, 8, 9, 10});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_y, 25.0);
  EXPECT_DOUBLE_EQ(r.p_value, 2.0 / 252);
}

// With ties: normal approximation with continuity and tie correction, as R's
// wilcox.test(x, y, exact = FALSE, correct = TRUE). Reference computed with
// python3 (statistics, math.erfc) from the formulas in Lehmann (1975) eq.
// 1.48: U = 56.5, z = 2.5584085962673253, p = 0.010515245935858918.
TEST(MannWhitney, TiesUseTheTieCorrectedNormalApproximation) {
  const std::vector<double> x = {1, 2, 2, 3, 3, 3, 4, 5};
  const std::vector<double> y = {3, 4, 4, 5, 5, 6, 7, 7};
  const MannWhitneyResult r = mann_whitney(x, y);
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_y, 56.5);
  EXPECT_NEAR(r.z, 2.5584085962673253, 1e-12);
  EXPECT_NEAR(r.p_value, 0.010515245935858918, 1e-12);
}

TEST(MannWhitney, TwoConstantSidesThatDifferAreSeparated) {
  // Two tie groups of five: variance (25/12)(11 - 240/90); z = -12/sqrt(...)
  // = -2.88, p = 0.003976751709788652 (python3 reference as above).
  const MannWhitneyResult r =
      mann_whitney(std::vector<double>(5, 5.0), std::vector<double>(5, 4.0));
  EXPECT_DOUBLE_EQ(r.u_y, 0.0);
  EXPECT_NEAR(r.z, -2.88, 1e-12);
  EXPECT_NEAR(r.p_value, 0.003976751709788652, 1e-12);
}

TEST(MannWhitney, AllValuesEqualGivesPOne) {
  const MannWhitneyResult r =
      mann_whitney(std::vector<double>(6, 3.0), std::vector<double>(7, 3.0));
  EXPECT_DOUBLE_EQ(r.u_y, 21.0);
  EXPECT_DOUBLE_EQ(r.p_value, 1.0);
}

TEST(MannWhitney, LargeSamplesUseTheNormalApproximation) {
  std::vector<double> x, y;
  for (int i = 0; i < 60; ++i) {
    x.push_back(i);
    y.push_back(i + 0.5);
  }
  const MannWhitneyResult r = mann_whitney(x, y);
  EXPECT_FALSE(r.exact);
  // U_y = sum over j of (j + 1) = 1830; mu = 1800; sigma^2 = 3600 * 121 / 12.
  EXPECT_DOUBLE_EQ(r.u_y, 1830.0);
  EXPECT_NEAR(r.z, 29.5 / std::sqrt(3600.0 * 121 / 12), 1e-12);
  EXPECT_GT(r.p_value, 0.5);
}

TEST(MannWhitney, MidranksAverageTies) {
  std::vector<std::size_t> ties;
  const std::vector<double> ranks = midranks(std::vector<double>{10, 20, 20, 5, 20}, &ties);
  EXPECT_EQ(ranks, (std::vector<double>{2, 4, 4, 1, 4}));
  EXPECT_EQ(ties, (std::vector<std::size_t>{3}));
}

TEST(MannWhitney, EmptySampleIsAnError) {
  EXPECT_THROW(mann_whitney(std::vector<double>{}, std::vector<double>{1}), std::invalid_argument);
}

}  // namespace
}  // namespace schedrig::analysis
