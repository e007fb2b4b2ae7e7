#include "agent/workloads/latency_histogram.h"

#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace schedrig::workloads {
namespace {

using H = LatencyHistogram;

// Nearest-rank quantile of sorted samples: the sample of rank max(1, ceil(q n)).
double exact_quantile(const std::vector<std::uint64_t>& sorted, double q) {
  auto rank = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size()))));
  return static_cast<double>(sorted[std::min(rank, sorted.size()) - 1]);
}

TEST(LatencyHistogram, BucketsTileTheRangeAndAreAtMostOneSixtyFourthWide) {
  EXPECT_EQ(H::kBuckets, 2240u);
  for (std::size_t i = 0; i + 1 < H::kBuckets; ++i) {
    ASSERT_EQ(H::lower_bound_ns(i) + H::width_ns(i), H::lower_bound_ns(i + 1)) << i;
    ASSERT_EQ(H::index_of(H::lower_bound_ns(i)), i) << i;
    ASSERT_EQ(H::index_of(H::lower_bound_ns(i) + H::width_ns(i) - 1), i) << i;
    if (i >= H::kExactBelow) {
      ASSERT_LE(H::width_ns(i) * 64, H::lower_bound_ns(i)) << i;
    } else {
      ASSERT_EQ(H::width_ns(i), 1u);
    }
  }
  EXPECT_EQ(H::index_of(UINT64_MAX), H::kBuckets - 1);
  EXPECT_EQ(H::index_of(std::uint64_t{1} << 40), H::kBuckets - 1);
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  H h;
  for (std::uint64_t v = 0; v < 128; ++v) h.record(v);
  EXPECT_EQ(h.count(), 128u);
  EXPECT_DOUBLE_EQ(h.quantile_ns(0.5), 63);
  EXPECT_DOUBLE_EQ(h.quantile_ns(0.01), 1);
  EXPECT_DOUBLE_EQ(h.quantile_ns(1.0), 127);
  EXPECT_EQ(h.min_ns(), 0u);
  EXPECT_EQ(h.max_ns(), 127u);
}

// The documented bound: every percentile within 1/128 (0.79 %) of the exact
// nearest-rank sample, over values from 1 ns to minutes.
TEST(LatencyHistogram, PercentilesAreWithinTheDocumentedRelativeError) {
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> dist(9.0, 3.0);  // median ~8 us, wide tails
  std::vector<std::uint64_t> samples;
  H h;
  for (int i = 0; i < 200000; ++i) {
    auto v = static_cast<std::uint64_t>(std::min(dist(rng), 1e12)) + 1;
    samples.push_back(v);
    h.record(v);
  }
  for (int k = 7; k < 40; ++k) {  // octave edges, where rounding is worst
    for (std::uint64_t v :
         {(std::uint64_t{1} << k) - 1, std::uint64_t{1} << k, (std::uint64_t{1} << k) + 1}) {
      samples.push_back(v);
      h.record(v);
    }
  }
  std::sort(samples.begin(), samples.end());
  double worst = 0;
  for (double q = 0.001; q < 1.0; q += 0.001) {
    const double exact = exact_quantile(samples, q);
    const double err = std::abs(h.quantile_ns(q) - exact) / exact;
    worst = std::max(worst, err);
    ASSERT_LE(err, H::kMaxRelativeError + 1e-12) << "q=" << q << " exact=" << exact;
  }
  EXPECT_LE(H::kMaxRelativeError, 0.01);
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    EXPECT_LE(std::abs(h.quantile_ns(q) - exact_quantile(samples, q)),
              exact_quantile(samples, q) * 0.01);
  }
  EXPECT_DOUBLE_EQ(h.quantile_ns(1.0), static_cast<double>(samples.back()));
  EXPECT_GT(worst, 0);  // the test really exercises rounding
}

TEST(LatencyHistogram, PercentilesAreOrdered) {
  std::mt19937_64 rng(7);
  std::exponential_distribution<double> dist(1e-4);
  H h;
  for (int i = 0; i < 10000; ++i) h.record(static_cast<std::uint64_t>(dist(rng)));
  EXPECT_LE(h.quantile_ns(0.5), h.quantile_ns(0.9));
  EXPECT_LE(h.quantile_ns(0.9), h.quantile_ns(0.99));
  EXPECT_LE(h.quantile_ns(0.99), h.quantile_ns(0.999));
  EXPECT_LE(h.quantile_ns(0.999), h.quantile_ns(1.0));
}

TEST(LatencyHistogram, MergePoolsSamples) {
  H a, b, all;
  for (std::uint64_t v = 1; v < 5000; v += 3) {
    (v % 2 ? a : b).record(v * 11);
    all.record(v * 11);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min_ns(), all.min_ns());
  EXPECT_EQ(a.max_ns(), all.max_ns());
  EXPECT_DOUBLE_EQ(a.mean_ns(), all.mean_ns());
  for (double q : {0.1, 0.5, 0.99}) EXPECT_DOUBLE_EQ(a.quantile_ns(q), all.quantile_ns(q));
}

TEST(LatencyHistogram, ExportListsNonEmptyBucketsAscendingInTheUnit) {
  H h;
  h.record(5);
  h.record(5);
  h.record(1500);
  h.record(2'000'000);
  Histogram out = h.to_histogram("wakeup_latency", "us", 1000.0);
  EXPECT_EQ(out.name, "wakeup_latency");
  EXPECT_EQ(out.unit, "us");
  ASSERT_EQ(out.lower_bounds.size(), 3u);
  ASSERT_EQ(out.counts.size(), 3u);
  EXPECT_DOUBLE_EQ(out.lower_bounds[0], 0.005);
  EXPECT_EQ(out.counts[0], 2u);
  EXPECT_TRUE(std::is_sorted(out.lower_bounds.begin(), out.lower_bounds.end()));
  EXPECT_LE(out.lower_bounds[1], 1.5);
  EXPECT_GT(out.lower_bounds[1], 1.5 * (1 - 1.0 / 64));
  EXPECT_LE(out.lower_bounds[2], 2000.0);
}

TEST(LatencyHistogram, EmptyHistogramReadsZero) {
  H h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.quantile_ns(0.5), 0);
  EXPECT_EQ(h.min_ns(), 0u);
  EXPECT_EQ(h.max_ns(), 0u);
  EXPECT_TRUE(h.to_histogram("x", "us", 1000).counts.empty());
}

}  // namespace
}  // namespace schedrig::workloads
