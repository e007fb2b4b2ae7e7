// The Hodges–Lehmann estimate of the shift between two samples and its
// distribution-free confidence interval (Hodges & Lehmann 1963; Hollander &
// Wolfe, Nonparametric Statistical Methods, 2nd ed., sec. 4.2 and 4.3).
#pragma once

#include <cstdint>
#include <span>

namespace schedrig::analysis {

// The k-th smallest (1-based, 1 <= k <= m n) of the m n pairwise differences
// y_j - x_i, without forming them: a search on the value (interpolation on
// the counts, every third step a bisection) with an O(m + n) count of
// differences <= t (both inputs ascending, so each row of the difference
// matrix is sorted), finishing by listing the few differences left in the
// bracket: O((m + n) log) rather than O(m n). Inputs must be sorted
// ascending and finite; throws std::invalid_argument for k out of range.
double kth_pairwise_difference(std::span<const double> x_sorted, std::span<const double> y_sorted,
                               std::uint64_t k);

struct HodgesLehmann {
  double shift = 0;  // median of y_j - x_i: how far y sits above x, in the data's unit
  double lo = 0;     // confidence interval for the shift, [d_(k), d_(mn+1-k)]
  double hi = 0;
  // Coverage of [lo, hi]: 1 - 2 P(U <= k - 1) when exact (>= the level
  // asked for, or below it when even the widest interval cannot reach it:
  // 3 vs 3 gives 0.90); the nominal level otherwise.
  double confidence = 0;
  bool exact = false;  // k from the exact U distribution (no ties, both sizes < 50)
};

// Shift of y against x (any order, finite values, both non-empty; throws
// std::invalid_argument otherwise) with a `confidence` interval. k is
// c + 1 for c = mann_whitney_critical_value(m, n, 1 - confidence) when the
// test is exact, else the normal approximation
// k = round(m n / 2 - z_{(1+confidence)/2} sigma_U) (Hollander & Wolfe eq.
// 4.41, sigma_U tie-corrected), clamped to 1 .. ceil(m n / 2).
HodgesLehmann hodges_lehmann(std::span<const double> x, std::span<const double> y,
                             double confidence = 0.95);

}  // namespace schedrig::analysis
