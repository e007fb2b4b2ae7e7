// Hodges–Lehmann shift and interval: a hand-worked example and the
// selection algorithm against brute force.
#include "host/analysis/hodges_lehmann.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace schedrig::analysis {
namespace {

// Worked by hand. x = 10 11 13 14 17, y = 12 15 16 18 21 (no ties in the
// ten values). The 25 differences y_j - x_i, row by row (y_j fixed):
//   y=12:  2  1 -1 -2 -5      y=15:  5  4  2  1 -2      y=16:  6  5  3  2 -1
//   y=18:  8  7  5  4  1      y=21: 11 10  8  7  4
// Sorted: -5 -2 -2 -1 -1 1 1 1 2 2 2 3 [4] 4 4 5 5 5 6 7 7 8 8 10 11.
// Shift = 13th = 4. For m = n = 5 the .05 critical value of U is 2
// (P(U <= 2) = 4/252), so k = 3 and the interval is [d_(3), d_(23)] =
// [-2, 8] with coverage 1 - 8/252 = 0.968.
TEST(HodgesLehmann, HandWorkedFiveAndFive) {
  const std::vector<double> x = {13, 10, 17, 11, 14};
  const std::vector<double> y = {21, 12, 15, 18, 16};
  const HodgesLehmann hl = hodges_lehmann(x, y);
  EXPECT_TRUE(hl.exact);
  EXPECT_DOUBLE_EQ(hl.shift, 4.0);
  EXPECT_DOUBLE_EQ(hl.lo, -2.0);
  EXPECT_DOUBLE_EQ(hl.hi, 8.0);
  EXPECT_NEAR(hl.confidence, 1 - 8.0 / 252, 1e-12);
}

TEST(HodgesLehmann, EvenNumberOfDifferencesAveragesTheMiddleTwo) {
  // x = 0 1, y = 1 3: differences 1 3 0 2 -> sorted 0 1 2 3, median 1.5.
  const HodgesLehmann hl = hodges_lehmann(std::vector<double>{0, 1}, std::vector<double>{1, 3});
  EXPECT_DOUBLE_EQ(hl.shift, 1.5);
}

TEST(HodgesLehmann, ThreeAgainstThreeCannotReach95Percent) {
  // P(U <= 0) = 1/20 > .025, so the widest interval [d_(1), d_(9)] is all a
  // rank method offers, at 1 - 2/20 = 90%.
  const HodgesLehmann hl =
      hodges_lehmann(std::vector<double>{1, 2, 3}, std::vector<double>{11, 12, 13});
  EXPECT_DOUBLE_EQ(hl.shift, 10.0);
  EXPECT_DOUBLE_EQ(hl.lo, 8.0);
  EXPECT_DOUBLE_EQ(hl.hi, 12.0);
  EXPECT_NEAR(hl.confidence, 0.90, 1e-12);
}

TEST(HodgesLehmann, KthDifferenceMatchesBruteForce) {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> noise(100, 15);
  for (int round = 0; round < 20; ++round) {
    const std::size_t m = 1 + rng() % 60, n = 1 + rng() % 70;
    std::vector<double> x(m), y(n);
    for (auto& v : x) v = std::round(noise(rng));  // rounding makes ties among differences
    for (auto& v : y) v = std::round(noise(rng) + 7);
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    std::vector<double> all;
    for (double a : x) {
      for (double b : y) all.push_back(b - a);
    }
    std::sort(all.begin(), all.end());
    for (std::uint64_t k : {std::uint64_t{1}, std::uint64_t{all.size()},
                            std::uint64_t{all.size() / 2 + 1}, std::uint64_t{1 + all.size() / 7}}) {
      EXPECT_EQ(kth_pairwise_difference(x, y, k), all[k - 1]) << m << "x" << n << " k=" << k;
    }
  }
}

TEST(HodgesLehmann, LargeSamplesUseTheNormalApproximationForK) {
  std::vector<double> x, y;
  for (int i = 0; i < 200; ++i) {
    x.push_back(1000 + i);
    y.push_back(1050.5 + i);
  }
  const HodgesLehmann hl = hodges_lehmann(x, y);
  EXPECT_FALSE(hl.exact);
  EXPECT_DOUBLE_EQ(hl.shift, 50.5);
  EXPECT_LT(hl.lo, 50.5);
  EXPECT_GT(hl.hi, 50.5);
  EXPECT_DOUBLE_EQ(hl.confidence, 0.95);
  // k = round(20000 - 1.959964 * sqrt(40000 * 401 / 12)) = 17734; the
  // differences are 50.5 + (j - i), 200 - |v| of them at j - i = v, so
  // d_(17734) = 50.5 - 12 and d_(22267) = 50.5 + 12 (counted in python3).
  EXPECT_DOUBLE_EQ(hl.lo, 38.5);
  EXPECT_DOUBLE_EQ(hl.hi, 62.5);
}

TEST(HodgesLehmann, OutOfRangeKIsAnError) {
  const std::vector<double> x = {1, 2}, y = {3};
  EXPECT_THROW(kth_pairwise_difference(x, y, 0), std::invalid_argument);
  EXPECT_THROW(kth_pairwise_difference(x, y, 3), std::invalid_argument);
}

}  // namespace
}  // namespace schedrig::analysis
