// A distribution-free confidence interval for a median (order statistics:
// the number of values below the true median is Binomial(n, 1/2); Conover,
// Practical Nonparametric Statistics, 3rd ed., 3.2). Used for a run's (or a
// kernel's) level in `schedrig trend`.
#pragma once

#include <span>

namespace schedrig::analysis {

struct MedianInterval {
  double lo = 0, hi = 0;  // NaN for no values
  double coverage = 0;    // the interval's actual coverage, >= the one asked when n allows
};

// The interval [x_(k), x_(n-k+1)] of the sorted `values` with the largest k
// whose coverage 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2), is at least
// `confidence`; [min, max] (coverage 1 - 2^(1-n)) when n is too small for
// that (n < 6 at 95%). Any order; finite values.
MedianInterval median_interval(std::span<const double> values, double confidence = 0.95);

}  // namespace schedrig::analysis
