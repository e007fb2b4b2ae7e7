// Pooled percentiles (host/analysis/pooled_histogram.h) against a merge of
// two histograms worked by hand, in the agent's buckets.
#include "host/analysis/pooled_histogram.h"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "common/latency_buckets.h"

namespace schedrig::analysis {
namespace {

namespace lb = latency_buckets;

// The lower bound, in us, of the bucket holding `ns`.
double bound_us(std::uint64_t ns) {
  return static_cast<double>(lb::lower_bound_ns(lb::index_of(ns))) / 1000.0;
}

// The midpoint, in us, the agent reports for the bucket holding `ns`.
double mid_us(std::uint64_t ns) {
  const std::size_t i = lb::index_of(ns);
  return (static_cast<double>(lb::lower_bound_ns(i)) +
          static_cast<double>(lb::width_ns(i) - 1) / 2.0) /
         1000.0;
}

TEST(PooledHistogram, MergesTwoHistogramsBucketByBucket) {
  // Iteration 1: 5 at ~10 us, 3 at ~20 us, 2 at ~30 us.
  // Iteration 2: 4 at ~20 us, 6 at ~40 us.
  // Merged (20 latencies): 10 us: 5, 20 us: 7, 30 us: 2, 40 us: 6.
  const std::vector<double> b1{bound_us(10'000), bound_us(20'000), bound_us(30'000)};
  const std::vector<unsigned long long> c1{5, 3, 2};
  const std::vector<double> b2{bound_us(20'000), bound_us(40'000)};
  const std::vector<unsigned long long> c2{4, 6};
  PooledHistogram p;
  p.unit = "us";
  add_histogram(p, b1, c1);
  add_histogram(p, b2, c2);
  EXPECT_EQ(p.histograms, 2u);
  EXPECT_EQ(p.samples, 20u);
  ASSERT_EQ(p.buckets.size(), 4u);
  EXPECT_EQ(p.buckets.at(bound_us(20'000)), 7u);
  // Nearest rank ceil(q n): p50 -> rank 10: 5 below, the 20 us bucket holds ranks 6..12.
  EXPECT_DOUBLE_EQ(pooled_quantile(p, 0.50), mid_us(20'000));
  // p25 -> rank 5: the last of the 10 us bucket.
  EXPECT_DOUBLE_EQ(pooled_quantile(p, 0.25), mid_us(10'000));
  // p70 -> rank 14: 12 up to 20 us, the 30 us bucket holds 13..14.
  EXPECT_DOUBLE_EQ(pooled_quantile(p, 0.70), mid_us(30'000));
  // p90 and p99 -> ranks 18 and 20: the 40 us bucket (15..20).
  EXPECT_DOUBLE_EQ(pooled_quantile(p, 0.90), mid_us(40'000));
  EXPECT_DOUBLE_EQ(pooled_quantile(p, 0.99), mid_us(40'000));
  // 20000 ns lies in [19968, 20224): the midpoint is 20095.5 ns.
  EXPECT_DOUBLE_EQ(mid_us(20'000), 20.0955);
}

TEST(PooledHistogram, APooledTailIsNotAMedianOfPerIterationTails) {
  // Nine quiet iterations (100 at ~10 us each) and one with 10 of its 100
  // at ~1 ms: each quiet iteration's p99 is ~10 us, so the median of the
  // per-iteration p99s is ~10 us; pooled, 10 of 1000 latencies are ~1 ms,
  // and p99 (rank 990) is still ~10 us while p99.9 (rank 999) is ~1 ms.
  PooledHistogram p;
  p.unit = "us";
  const std::vector<double> quiet_b{bound_us(10'000)};
  const std::vector<unsigned long long> quiet_c{100};
  for (int i = 0; i < 9; ++i) add_histogram(p, quiet_b, quiet_c);
  const std::vector<double> tail_b{bound_us(10'000), bound_us(1'000'000)};
  const std::vector<unsigned long long> tail_c{90, 10};
  add_histogram(p, tail_b, tail_c);
  EXPECT_EQ(p.samples, 1000u);
  EXPECT_DOUBLE_EQ(pooled_quantile(p, 0.99), mid_us(10'000));
  EXPECT_DOUBLE_EQ(pooled_quantile(p, 0.999), mid_us(1'000'000));
}

TEST(PooledHistogram, UnknownUnitsAndForeignBoundsReportTheLowerBound) {
  PooledHistogram p;
  p.unit = "requests";
  const std::vector<double> b{3, 7};
  const std::vector<unsigned long long> c{1, 1};
  add_histogram(p, b, c);
  EXPECT_DOUBLE_EQ(pooled_quantile(p, 1.0), 7);
  PooledHistogram q;
  q.unit = "us";
  const std::vector<double> odd{20.0};  // 20000 ns is not a bucket's lower bound
  const std::vector<unsigned long long> one{1};
  add_histogram(q, odd, one);
  EXPECT_DOUBLE_EQ(pooled_quantile(q, 0.5), 20.0);
}

TEST(PooledHistogram, HugeCountsSaturateInsteadOfWrapping) {
  PooledHistogram p;
  p.unit = "us";
  const unsigned long long max = std::numeric_limits<unsigned long long>::max();
  const std::vector<double> b{bound_us(10'000), bound_us(20'000)};
  const std::vector<unsigned long long> c{max, max};
  add_histogram(p, b, c);
  add_histogram(p, b, c);
  EXPECT_EQ(p.samples, max);
  EXPECT_EQ(p.buckets.at(bound_us(10'000)), max);
  EXPECT_FALSE(std::isnan(pooled_quantile(p, 0.99)));
}

TEST(PooledHistogram, EmptyIsNaNAndZeroCountsAreIgnored) {
  PooledHistogram p;
  p.unit = "us";
  EXPECT_TRUE(std::isnan(pooled_quantile(p, 0.5)));
  const std::vector<double> b{bound_us(5'000)};
  const std::vector<unsigned long long> zero{0};
  add_histogram(p, b, zero);
  EXPECT_TRUE(p.buckets.empty());
  EXPECT_TRUE(std::isnan(pooled_quantile(p, 0.5)));
  EXPECT_EQ(ns_per_unit("ms"), 1e6);
  EXPECT_EQ(ns_per_unit("ops"), 0);
}

}  // namespace
}  // namespace schedrig::analysis
