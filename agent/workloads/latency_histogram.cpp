#include "agent/workloads/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace schedrig::workloads {

LatencyHistogram::LatencyHistogram() : counts_(kBuckets, 0) {}

std::size_t LatencyHistogram::index_of(std::uint64_t v) { return latency_buckets::index_of(v); }

std::uint64_t LatencyHistogram::lower_bound_ns(std::size_t index) {
  return latency_buckets::lower_bound_ns(index);
}

std::uint64_t LatencyHistogram::width_ns(std::size_t index) {
  return latency_buckets::width_ns(index);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (std::size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

double LatencyHistogram::quantile_ns(double q) const {
  if (count_ == 0) return 0;
  if (q >= 1) return static_cast<double>(max_);
  const auto rank = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(std::max(q, 0.0) * static_cast<double>(count_))));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      const double mid =
          static_cast<double>(lower_bound_ns(i)) + static_cast<double>(width_ns(i) - 1) / 2.0;
      return std::clamp(mid, static_cast<double>(min_), static_cast<double>(max_));
    }
  }
  return static_cast<double>(max_);
}

Histogram LatencyHistogram::to_histogram(const std::string& name, const std::string& unit,
                                         double ns_per_unit) const {
  Histogram h{name, unit, {}, {}};
  for (std::size_t i = 0; i < kBuckets; ++i) {
    if (counts_[i] == 0) continue;
    h.lower_bounds.push_back(static_cast<double>(lower_bound_ns(i)) / ns_per_unit);
    h.counts.push_back(counts_[i]);
  }
  return h;
}

}  // namespace schedrig::workloads
