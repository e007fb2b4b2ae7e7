// The Mann–Whitney U test (Wilcoxon rank-sum test) for two independent
// samples, written here rather than taken from a library so that it can be
// checked against the published tables (Mann & Whitney 1947, Table I; the
// usual table of two-tailed critical values of U).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace schedrig::analysis {

// Exact distribution is used when both sizes are below this and there are
// no ties (the rule of R's wilcox.test); otherwise the normal approximation.
inline constexpr std::size_t kMannWhitneyExactBelow = 50;

// Counts of U = 0 .. m*n over all C(m+n, m) equally likely arrangements of
// two tie-free samples of sizes m and n (so the sum is C(m+n, m), as a
// double: exact while below 2^53, relative error ~1e-16 above). Recurrence
// f(m, n; u) = f(m-1, n; u-n) + f(m, n-1; u) (Mann & Whitney 1947, eq. 1).
// Sizes up to kMannWhitneyExactBelow - 1 are cached. O(m n min(m, n)).
std::vector<double> mann_whitney_counts(unsigned m, unsigned n);

// P(U <= u) under H0 for tie-free samples of sizes m and n; 0 for u < 0,
// 1 for u >= m*n.
double mann_whitney_cdf(unsigned m, unsigned n, double u);

// The largest c with P(U <= c) <= alpha_two_sided / 2: reject H0 at that
// level when min(U, m n - U) <= c. -1 when no c qualifies (3 vs 3 at 0.05).
int mann_whitney_critical_value(unsigned m, unsigned n, double alpha_two_sided);

struct MannWhitneyResult {
  // U of the second sample y: #pairs (x_i, y_j) with y_j > x_i, plus half of
  // the tied pairs. u_x = m n - u_y.
  double u_y = 0;
  double u_x = 0;
  double p_value = 1;  // two-sided
  bool exact = false;  // exact distribution (no ties, both sizes < 50)
  // Normal approximation only: z of u_y with continuity correction 1/2 and
  // tie-corrected variance (m n / 12)((N + 1) - sum(t^3 - t) / (N (N - 1)))
  // (Lehmann 1975, eq. 1.48); 0 when exact.
  double z = 0;
};

// Two-sided Mann–Whitney U test of x against y (any order; finite values).
// U from both samples sorted and merged, O((m + n) log(m + n)).
// Exact: p = min(1, 2 P(U <= min(u_x, u_y))). Normal: p = 2 Phi(-|z|); a
// variance of 0 (every value equal) gives p = 1. Throws std::invalid_argument
// when either sample is empty.
MannWhitneyResult mann_whitney(std::span<const double> x, std::span<const double> y);

// Sizes of the groups of equal values (two or more) in the union of two
// ascending samples, by merging them: O(m + n).
std::vector<std::size_t> tie_groups(std::span<const double> a_sorted,
                                    std::span<const double> b_sorted);

// Mid-ranks (1-based, ties get the mean of their ranks) of `values` in input
// order; `tie_sizes`, when given, receives the size of every tie group of
// two or more.
std::vector<double> midranks(std::span<const double> values,
                             std::vector<std::size_t>* tie_sizes = nullptr);

}  // namespace schedrig::analysis
