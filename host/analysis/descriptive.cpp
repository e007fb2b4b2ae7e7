#include "host/analysis/descriptive.h"

#include <algorithm>
#include <cmath>

namespace schedrig::analysis {

bool all_positive(std::span<const double> values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return v > 0; });
}

std::vector<double> log_values(std::span<const double> values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (double v : values) out.push_back(std::log(v));
  return out;
}

std::vector<double> sorted_copy(std::span<const double> values) {
  std::vector<double> out(values.begin(), values.end());
  std::sort(out.begin(), out.end());
  return out;
}

double median_of_sorted(std::span<const double> sorted) {
  const std::size_t n = sorted.size();
  if (n == 0) return kNaN;
  if (n % 2 == 1) return sorted[n / 2];
  return sorted[n / 2 - 1] + (sorted[n / 2] - sorted[n / 2 - 1]) / 2;
}

double median(std::span<const double> values) {
  std::vector<double> v(values.begin(), values.end());
  return median_in_place(v);
}

double median_in_place(std::vector<double>& v) {
  const std::size_t n = v.size();
  if (n == 0) return kNaN;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(v.begin(), mid, v.end());
  const double upper = *mid;
  if (n % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), mid);
  return lower + (upper - lower) / 2;
}

Summary summarize(std::span<const double> values) {
  Summary s;
  s.n = values.size();
  if (s.n == 0) return s;
  double sum = 0;
  s.min = values.front();
  s.max = values.front();
  for (double v : values) {
    sum += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean = sum / static_cast<double>(s.n);
  if (s.min == s.max) s.mean = s.min;  // exact for a constant series
  s.median = median(values);
  if (s.n < 2) return s;
  double ss = 0;
  for (double v : values) ss += (v - s.mean) * (v - s.mean);
  s.sd = std::sqrt(ss / static_cast<double>(s.n - 1));
  if (s.sd == 0) {
    s.cov_pct = 0;
  } else if (s.mean != 0) {
    s.cov_pct = 100.0 * s.sd / std::fabs(s.mean);
  }
  return s;
}

double lag1_autocorrelation(std::span<const double> values) {
  const std::size_t n = values.size();
  if (n < 3) return kNaN;
  double mean = 0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(n);
  double num = 0, den = 0;
  for (std::size_t t = 0; t < n; ++t) {
    den += (values[t] - mean) * (values[t] - mean);
    if (t + 1 < n) num += (values[t] - mean) * (values[t + 1] - mean);
  }
  return den == 0 ? kNaN : num / den;
}

}  // namespace schedrig::analysis
