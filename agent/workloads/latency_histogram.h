// A log-linear latency histogram (the HdrHistogram / fio "plat" idea that
// schbench.c also uses), with a documented error bound.
//
// Samples are integers in nanoseconds. Values 0..127 get one bucket each
// (exact). Above, every power-of-two range [2^e, 2^(e+1)), e = 7..39, is cut
// into 64 equal buckets of width 2^(e-6), so a bucket is at most 1/64 of its
// lower bound wide. Values >= 2^40 ns (~18 min) land in the top bucket; the
// exact maximum and minimum are kept aside. 2240 buckets, ~18 KiB.
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

namespace schedrig::workloads {

class LatencyHistogram {
 public:
  static constexpr unsigned kSubBucketBits = 6;                           // 64 buckets per octave
  static constexpr std::uint64_t kExactBelow = 128;                       // 1-ns buckets below this
  static constexpr unsigned kTopExponent = 40;                            // clamp at 2^40 ns
  static constexpr std::size_t kBuckets = 128 + (kTopExponent - 7) * 64;  // 2240
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
