// Latency percentiles pooled from stored histograms (docs/statistics.md
// "Pooled percentiles"): the buckets of every iteration's histogram added
// up, then one percentile of the merged distribution — not a median of
// per-iteration percentiles, which hides a tail that only some iterations
// have. The buckets are common/latency_buckets.h's; a pooled percentile
// keeps the agent's bound (|reported - nearest-rank sample| <= sample/128)
// for histograms in a known time unit.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>

namespace schedrig::analysis {

// The merge of histograms of one unit: count per bucket lower bound.
struct PooledHistogram {
  std::string unit;                              // of the bounds, e.g. "us"
  std::map<double, unsigned long long> buckets;  // lower bound -> count
  unsigned long long samples = 0;                // sum of the counts
  unsigned histograms = 0;                       // histograms added
};

// Adds one histogram (non-empty buckets: ascending lower bounds and their
// counts, parallel; a shorter side's extra entries are ignored). Counts
// saturate at the largest unsigned long long instead of wrapping.
void add_histogram(PooledHistogram& pooled, std::span<const double> lower_bounds,
                   std::span<const unsigned long long> counts);

// Nanoseconds per `unit` ("ns" 1, "us" 1e3, "ms" 1e6, "s" 1e9); 0 for any
// other unit.
double ns_per_unit(std::string_view unit);

// The q-quantile (q in (0, 1]; 0.99 = p99) of `pooled`, in its unit: the
// bucket holding the sample of nearest rank max(1, ceil(q*n)), reported as
// that bucket's midpoint as the agent reports one (LatencyHistogram::
// quantile_ns) — its lower bound when the unit is unknown or the bound is
// not a bucket of common/latency_buckets.h. NaN when empty.
double pooled_quantile(const PooledHistogram& pooled, double q);

}  // namespace schedrig::analysis
