// Monotone trend ("drift") in a series taken in iteration order: the
// Mann–Kendall test (Mann 1945; Kendall, Rank Correlation Methods, 1975),
// Kendall's tau against iteration order, and the Theil–Sen slope (Theil 1950;
// Sen 1968).
#pragma once

#include <span>

namespace schedrig::analysis {

// Exact S distribution (permutations by inversion count) below this length
// when there are no ties; the normal approximation otherwise.
inline constexpr std::size_t kMannKendallExactBelow = 51;

struct MannKendall {
  // S = #(i < j, y_j > y_i) - #(i < j, y_j < y_i); O(n log n) by merge sort.
  double s = 0;
  // Kendall's tau-b against iteration order: S / sqrt(n0 (n0 - n_ties)),
  // n0 = n (n - 1) / 2, n_ties = sum t (t - 1) / 2 over tied groups of y.
  // 0 for n < 2 or a constant series.
  double tau = 0;
  // Two-sided. Exact: 2 P(S >= |s|) from the distribution of inversions of
  // a random permutation. Normal: z = (S - sgn S) / sqrt(Var S),
  // Var S = (n (n-1) (2n+5) - sum t (t-1) (2t+5)) / 18. 1 when S = 0.
  double p_value = 1;
  bool exact = false;
};

// Mann–Kendall trend test of `y` (time order, finite values).
MannKendall mann_kendall(std::span<const double> y);

// P(S >= s) for the Mann–Kendall S of n tie-free values under H0
// (n < kMannKendallExactBelow; throws std::invalid_argument above).
double mann_kendall_upper_tail(std::size_t n, double s);

// Theil–Sen slope: the median over i < j of (y_j - y_i) / (j - i), per
// iteration. NaN for n < 2. Exact (all pairs) up to `exact_up_to` values;
// a longer series is first cut into `exact_up_to` consecutive blocks of
// (nearly) equal length, and the slope is the Theil–Sen slope of the block
// medians against the blocks' centre positions: O(n) plus O(exact_up_to^2),
// robust, and for a series that really is a line plus noise, the same slope.
double sen_slope(std::span<const double> y, std::size_t exact_up_to = 64);

// Thresholds of detect_drift (docs/statistics.md, "Drift").
struct DriftOptions {
  double alpha = 0.10;          // Mann–Kendall two-sided p below this
  double min_change_pct = 5.0;  // and |change_pct| at least this
  // and |tau| at least this: "steady" means most pairs of iterations agree
  // on the direction. Bites only on long series (n > ~25), where a tiny tau
  // is already significant (a 30-minute per-second sawtooth has tau -0.09).
  double min_abs_tau = 0.3;
};

struct Drift {
  bool present = false;
  double tau = 0;      // Kendall's tau against iteration order
  double p_value = 1;  // Mann–Kendall
  // Change from the first to the last iteration along a Theil–Sen line, %.
  // Every value > 0: the line of ln y, 100 (exp(b_ln (n - 1)) - 1), a ratio
  // of the line's end to its start, so never below -100%. Otherwise the line
  // of y, 100 b (n - 1) / |a + b|, a = median(y_i - b i), i = 1..n (NaN
  // when a + b is 0). NaN for n < 2.
  double change_pct = 0;
  double slope = 0;  // b, in the series' unit per iteration
};

// Trend of `y` (time order). present = p_value < alpha, |tau| >=
// min_abs_tau and |change_pct| >= min_change_pct (a two-level series can
// also pass; analyze_series decides between drift and modes).
Drift detect_drift(std::span<const double> y, const DriftOptions& options = {});

}  // namespace schedrig::analysis
