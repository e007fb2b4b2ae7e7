#include "host/analysis/trend.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <boost/math/distributions/normal.hpp>

#include "host/analysis/descriptive.h"

namespace schedrig::analysis {
namespace {

// Pairs i < j of `a` with a_i > a_j (or a_i >= a_j when `or_equal`), by
// merge sort; sorts `a`. O(n log n).
std::uint64_t count_inversions(std::vector<double>& a, bool or_equal) {
  const std::size_t n = a.size();
  std::vector<double> buf(n);
  std::uint64_t total = 0;
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t start = 0; start < n; start += 2 * width) {
      const std::size_t mid = std::min(start + width, n), end = std::min(start + 2 * width, n);
      std::size_t i = start, j = mid, k = start;
      while (i < mid && j < end) {
        const bool take_right = or_equal ? a[j] <= a[i] : a[j] < a[i];
        if (take_right) {
          total += mid - i;  // a[j] sits below every a[i..mid)
          buf[k++] = a[j++];
        } else {
          buf[k++] = a[i++];
        }
      }
      while (i < mid) buf[k++] = a[i++];
      while (j < end) buf[k++] = a[j++];
    }
    std::swap(a, buf);
  }
  return total;
}

// Sizes of the groups of equal values (two or more) in ascending `sorted`.
std::vector<std::size_t> tie_groups(const std::vector<double>& sorted) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i + 1;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    if (j - i > 1) out.push_back(j - i);
    i = j;
  }
  return out;
}

// Medians of `blocks` consecutive, (nearly) equal blocks of y, and the
// blocks' centres as 1-based iteration positions.
void block_medians(std::span<const double> y, std::size_t blocks, std::vector<double>& x_out,
                   std::vector<double>& m_out) {
  const std::size_t n = y.size();
  std::vector<double> buf;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t first = b * n / blocks, last = (b + 1) * n / blocks;
    buf.assign(y.begin() + static_cast<std::ptrdiff_t>(first),
               y.begin() + static_cast<std::ptrdiff_t>(last));
    m_out.push_back(median_in_place(buf));
    x_out.push_back((static_cast<double>(first) + static_cast<double>(last - 1)) / 2 + 1);
  }
}

// Change along the Theil-Sen line of `y` with slope `slope`, first to last
// iteration, in % of the line's first value: 100 b (n - 1) / |a + b|,
// a = median(y_i - b i). NaN when the line starts at 0. n >= 2.
double line_change_pct(std::span<const double> y, double slope) {
  const std::size_t n = y.size();
  std::vector<double> intercepts(n);
  for (std::size_t i = 0; i < n; ++i) intercepts[i] = y[i] - slope * static_cast<double>(i + 1);
  const double first = median(intercepts) + slope;
  return first == 0 ? kNaN : 100.0 * slope * static_cast<double>(n - 1) / std::fabs(first);
}

// The same on the log scale for an all-positive series: the Theil-Sen line
// of ln y, whose end over start is exp(b_ln (n - 1)); as a change,
// 100 (exp(b_ln (n - 1)) - 1), never below -100%. n >= 2.
double log_line_change_pct(std::span<const double> y) {
  const double slope = sen_slope(log_values(y));
  return 100.0 * std::expm1(slope * static_cast<double>(y.size() - 1));
}

}  // namespace

double mann_kendall_upper_tail(std::size_t n, double s) {
  if (n >= kMannKendallExactBelow) {
    throw std::invalid_argument(
        fmt::format("mann_kendall_upper_tail: n {} is not below {}", n, kMannKendallExactBelow));
  }
  const std::size_t n0 = n * (n - 1) / 2;
  // probability of k inversions among random permutations, built one element
  // at a time: the i-th element adds 0..i-1 inversions, equally likely.
  std::vector<double> p(n0 + 1, 0.0), next(n0 + 1);
  p[0] = 1;
  for (std::size_t i = 2; i <= n; ++i) {
    const std::size_t reach = i * (i - 1) / 2;
    double window = 0;  // sum of p[k - i + 1 .. k]
    for (std::size_t k = 0; k <= reach; ++k) {
      window += p[k];
      if (k >= i) window -= p[k - i];
      next[k] = window / static_cast<double>(i);
    }
    std::fill(next.begin() + static_cast<std::ptrdiff_t>(reach) + 1, next.end(), 0.0);
    std::swap(p, next);
  }
  // S = n0 - 2 I >= s  <=>  I <= (n0 - s) / 2
  const double limit = (static_cast<double>(n0) - s) / 2;
  if (limit < 0) return 0;
  double tail = 0;
  for (std::size_t k = 0; k <= n0 && static_cast<double>(k) <= limit + 1e-9; ++k) tail += p[k];
  return std::min(1.0, tail);
}

MannKendall mann_kendall(std::span<const double> y) {
  MannKendall r;
  const std::size_t n = y.size();
  if (n < 2) return r;
  std::vector<double> a(y.begin(), y.end());
  const double discordant = static_cast<double>(count_inversions(a, false));  // a is now sorted
  const std::vector<std::size_t> ties = tie_groups(a);
  const double n0 = static_cast<double>(n) * static_cast<double>(n - 1) / 2;
  double tied_pairs = 0, tie_var = 0;
  for (std::size_t t : ties) {
    const double td = static_cast<double>(t);
    tied_pairs += td * (td - 1) / 2;
    tie_var += td * (td - 1) * (2 * td + 5);
  }
  r.s = n0 - tied_pairs - 2 * discordant;
  r.tau = n0 - tied_pairs > 0 ? r.s / std::sqrt(n0 * (n0 - tied_pairs)) : 0;
  if (r.s == 0) return r;
  r.exact = ties.empty() && n < kMannKendallExactBelow;
  if (r.exact) {
    r.p_value = std::min(1.0, 2 * mann_kendall_upper_tail(n, std::fabs(r.s)));
    return r;
  }
  const double nd = static_cast<double>(n);
  const double var = (nd * (nd - 1) * (2 * nd + 5) - tie_var) / 18;
  if (!(var > 0)) return r;
  const double z = (r.s - (r.s > 0 ? 1 : -1)) / std::sqrt(var);
  r.p_value = std::min(1.0, 2 * boost::math::cdf(boost::math::normal(), -std::fabs(z)));
  return r;
}

double sen_slope(std::span<const double> y, std::size_t exact_up_to) {
  const std::size_t n = y.size();
  if (n < 2) return kNaN;
  std::vector<double> x, v;
  if (n <= exact_up_to || exact_up_to < 2) {
    x.resize(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<double>(i + 1);
    v.assign(y.begin(), y.end());
  } else {
    block_medians(y, exact_up_to, x, v);
  }
  std::vector<double> slopes;
  slopes.reserve(v.size() * (v.size() - 1) / 2);
  for (std::size_t i = 0; i < v.size(); ++i) {
    for (std::size_t j = i + 1; j < v.size(); ++j) slopes.push_back((v[j] - v[i]) / (x[j] - x[i]));
  }
  return median_in_place(slopes);
}

Drift detect_drift(std::span<const double> y, const DriftOptions& options) {
  Drift d;
  const std::size_t n = y.size();
  if (n < 2) {
    d.change_pct = kNaN;
    return d;
  }
  const MannKendall mk = mann_kendall(y);
  d.tau = mk.tau;
  d.p_value = mk.p_value;
  d.slope = sen_slope(y);
  d.change_pct = all_positive(y) ? log_line_change_pct(y) : line_change_pct(y, d.slope);
  d.present = d.p_value < options.alpha && std::fabs(d.tau) >= options.min_abs_tau &&
              std::isfinite(d.change_pct) && std::fabs(d.change_pct) >= options.min_change_pct;
  return d;
}

}  // namespace schedrig::analysis
