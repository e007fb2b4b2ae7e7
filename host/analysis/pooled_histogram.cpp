#include "host/analysis/pooled_histogram.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "common/latency_buckets.h"

namespace schedrig::analysis {
namespace {

// The midpoint of the bucket starting at `lower` (in a unit of
// `scale` ns), as LatencyHistogram reports one; `lower` itself when it is
// not a bucket's lower bound.
double bucket_midpoint(double lower, double scale) {
  if (scale <= 0 || !(lower >= 0) || lower * scale >= 0x1p62) return lower;
  const auto lower_ns = static_cast<std::uint64_t>(std::llround(lower * scale));
  const std::size_t index = latency_buckets::index_of(lower_ns);
  if (latency_buckets::lower_bound_ns(index) != lower_ns) return lower;
  const double width_ns = static_cast<double>(latency_buckets::width_ns(index));
  return (static_cast<double>(lower_ns) + (width_ns - 1) / 2.0) / scale;
}

}  // namespace

void add_histogram(PooledHistogram& pooled, std::span<const double> lower_bounds,
                   std::span<const unsigned long long> counts) {
  const std::size_t n = std::min(lower_bounds.size(), counts.size());
  constexpr unsigned long long kMax = std::numeric_limits<unsigned long long>::max();
  for (std::size_t i = 0; i < n; ++i) {
    if (counts[i] == 0 || !std::isfinite(lower_bounds[i])) continue;
    // Saturating: no count a remote agent stores may wrap the merge.
    unsigned long long& bucket = pooled.buckets[lower_bounds[i]];
    bucket = counts[i] > kMax - bucket ? kMax : bucket + counts[i];
    pooled.samples = counts[i] > kMax - pooled.samples ? kMax : pooled.samples + counts[i];
  }
  ++pooled.histograms;
}

double ns_per_unit(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return 0;
}

double pooled_quantile(const PooledHistogram& pooled, double q) {
  if (pooled.samples == 0) return std::numeric_limits<double>::quiet_NaN();
  const double n = static_cast<double>(pooled.samples);
  const auto rank = std::max<unsigned long long>(
      1, static_cast<unsigned long long>(std::ceil(std::clamp(q, 0.0, 1.0) * n)));
  unsigned long long seen = 0;
  for (const auto& [lower, count] : pooled.buckets) {
    seen += count;
    if (seen >= rank) return bucket_midpoint(lower, ns_per_unit(pooled.unit));
  }
  return bucket_midpoint(pooled.buckets.rbegin()->first, ns_per_unit(pooled.unit));
}

}  // namespace schedrig::analysis
