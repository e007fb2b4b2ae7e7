// Descriptive statistics of one series of measurements (docs/architecture.md
// "Statistics"). Pure functions over numbers; inputs are finite doubles in
// iteration order, never reordered in place.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace schedrig::analysis {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// n, mean, median, min, max, sample standard deviation and coefficient of
// variation of a series. Every field but n is NaN for an empty series.
struct Summary {
  std::size_t n = 0;
  double mean = kNaN;
  double median = kNaN;  // middle value, or the mean of the two middle values
  double min = kNaN;
  double max = kNaN;
  double sd = kNaN;  // sample SD, sqrt(sum (x - mean)^2 / (n - 1)); NaN when n < 2
  // 100 * sd / |mean|, in percent. 0 for a constant series (sd 0, whatever
  // the mean); NaN when n < 2 or when the mean is 0 and sd is not.
  double cov_pct = kNaN;
};

// Summary of `values` (any order). Two-pass mean and variance, so large
// offsets (1e9 +- 1) keep their precision.
Summary summarize(std::span<const double> values);

// Median of `values` (any order); NaN when empty. O(n) (nth_element on a copy).
double median(std::span<const double> values);

// Median of `values`, reordering them (nth_element, no copy); NaN when empty.
double median_in_place(std::vector<double>& values);

// Median of already ascending `sorted`; NaN when empty. O(1).
double median_of_sorted(std::span<const double> sorted);

// Lag-1 autocorrelation of a series in time order,
// r1 = sum_{t<n} (x_t - m)(x_{t+1} - m) / sum_t (x_t - m)^2 (Box & Jenkins'
// sample autocorrelation at lag 1). NaN when n < 3 or the series is constant.
double lag1_autocorrelation(std::span<const double> values);

// A sorted copy of `values`.
std::vector<double> sorted_copy(std::span<const double> values);

// True when every value is > 0 (so logs and ratios are defined); true when empty.
bool all_positive(std::span<const double> values);

// ln of each value, in order (values > 0).
std::vector<double> log_values(std::span<const double> values);

}  // namespace schedrig::analysis
