// The order-statistic interval of a median against Conover's table values.
#include "host/analysis/median_ci.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace schedrig::analysis {
namespace {

TEST(MedianInterval, TenValuesGiveTheSecondAndNinthAt97_9Percent) {
  // n = 10: P(B <= 1) = 11/1024, coverage 1 - 22/1024 = 0.9785; k = 3
  // would cover only 1 - 2 * 56/1024 = 0.8906.
  const std::vector<double> v{9, 1, 8, 2, 7, 3, 6, 4, 5, 10};
  const MedianInterval ci = median_interval(v);
  EXPECT_EQ(ci.lo, 2);
  EXPECT_EQ(ci.hi, 9);
  EXPECT_NEAR(ci.coverage, 1 - 22.0 / 1024, 1e-12);
}

TEST(MedianInterval, FewValuesGiveTheRangeWithItsLowerCoverage) {
  const std::vector<double> v{5, 3, 4, 1, 2};
  const MedianInterval ci = median_interval(v);
  EXPECT_EQ(ci.lo, 1);
  EXPECT_EQ(ci.hi, 5);
  EXPECT_NEAR(ci.coverage, 1 - 2.0 / 32, 1e-12);  // 0.9375 < 0.95
  const std::vector<double> one{7};
  EXPECT_EQ(median_interval(one).lo, 7);
  EXPECT_EQ(median_interval(one).hi, 7);
  EXPECT_TRUE(std::isnan(median_interval(std::vector<double>{}).lo));
}

TEST(MedianInterval, LongSeriesNarrowsAroundTheMedian) {
  // n = 100 at 95%: k = 40 (Conover's table: ranks 40 and 61).
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);
  const MedianInterval ci = median_interval(v);
  EXPECT_EQ(ci.lo, 40);
  EXPECT_EQ(ci.hi, 61);
  EXPECT_GE(ci.coverage, 0.95);
}

}  // namespace
}  // namespace schedrig::analysis
