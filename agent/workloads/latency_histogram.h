// A log-linear latency histogram (the HdrHistogram / fio "plat" idea that
// schbench.c also uses), with a documented error bound.
//
// Samples are integers in nanoseconds, in the buckets of
// common/latency_buckets.h (exact below 128 ns, then 64 a power of two);
// the exact maximum and minimum are kept aside. 2240 buckets, ~18 KiB.
//
// Error bound: a percentile is the midpoint of the bucket holding the
// nearest-rank sample (rank ceil(q*n)), clamped to [min, max]. The
// nearest-rank sample v lies in that bucket, so the reported value r obeys
// |r - v| <= v / 128 (0.79 %, below the required 1 %), and r = v exactly for
// v < 128 ns. Pooling histograms (merge) keeps the bound.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "agent/workloads/metric.h"
#include "common/latency_buckets.h"

namespace schedrig::workloads {

class LatencyHistogram {
 public:
  static constexpr unsigned kSubBucketBits = latency_buckets::kSubBucketBits;
  static constexpr std::uint64_t kExactBelow = latency_buckets::kExactBelow;
  static constexpr unsigned kTopExponent = latency_buckets::kTopExponent;
  static constexpr std::size_t kBuckets = latency_buckets::kBuckets;  // 2240
  static constexpr double kMaxRelativeError = 1.0 / 128;

  LatencyHistogram();

  // Adds one sample (ns). Not thread-safe: one histogram per thread, merged.
  void record(std::uint64_t value_ns) {
    ++counts_[index_of(value_ns)];
    ++count_;
    sum_ += value_ns;
    if (value_ns < min_) min_ = value_ns;
    if (value_ns > max_) max_ = value_ns;
  }

  // Adds every sample of `other`.
  void merge(const LatencyHistogram& other);

  std::uint64_t count() const { return count_; }
  std::uint64_t min_ns() const { return count_ ? min_ : 0; }  // exact; 0 when empty
  std::uint64_t max_ns() const { return max_; }               // exact; 0 when empty
  double mean_ns() const {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0;
  }

  // The q-quantile in ns, q in [0, 1] (0.5 = p50, 0.999 = p99.9): the
  // midpoint of the bucket holding the sample of rank max(1, ceil(q*n)),
  // clamped to [min, max]; q = 1 gives the exact max. 0 when empty.
  double quantile_ns(double q) const;

  // Non-empty buckets as a Histogram named `name`; lower bounds in ns divided
  // by `ns_per_unit` (1000 for "us").
  Histogram to_histogram(const std::string& name, const std::string& unit,
                         double ns_per_unit) const;

  // Bucket arithmetic, exposed for tests and for pooling on the host side.
  static std::size_t index_of(std::uint64_t value_ns);
  static std::uint64_t lower_bound_ns(std::size_t index);
  static std::uint64_t width_ns(std::size_t index);

 private:
  std::vector<std::uint64_t> counts_;
  std::uint64_t count_ = 0;
  std::uint64_t sum_ = 0;
  std::uint64_t min_ = UINT64_MAX;
  std::uint64_t max_ = 0;
};

}  // namespace schedrig::workloads
