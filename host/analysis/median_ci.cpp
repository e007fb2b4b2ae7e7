#include "host/analysis/median_ci.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace schedrig::analysis {

MedianInterval median_interval(std::span<const double> values, double confidence) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x(values.begin(), values.end());
  if (x.empty()) return {kNaN, kNaN, 0};
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  // cdf = P(B <= j) for B ~ Binomial(n, 1/2), accumulated in log space
  // for the pmf (n can be large).
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  double cdf = 0;
  std::size_t k = 1;  // [x_(1), x_(n)] at least
  double coverage = 1 - 2 * std::exp(log_half_n);
  for (std::size_t j = 0; j + 1 <= (n + 1) / 2; ++j) {
    const double log_pmf = std::lgamma(static_cast<double>(n) + 1) -
                           std::lgamma(static_cast<double>(j) + 1) -
                           std::lgamma(static_cast<double>(n - j) + 1) + log_half_n;
    cdf += std::exp(log_pmf);      // P(B <= j)
    const double c = 1 - 2 * cdf;  // the coverage of k = j + 1
    if (c < confidence) break;
    k = j + 1;
    coverage = c;
  }
  return {x[k - 1], x[n - k], coverage};
}

}  // namespace schedrig::analysis
