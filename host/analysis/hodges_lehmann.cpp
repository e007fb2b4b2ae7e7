#include "host/analysis/hodges_lehmann.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <boost/math/distributions/normal.hpp>

#include "host/analysis/descriptive.h"
#include "host/analysis/mann_whitney.h"

namespace schedrig::analysis {
namespace {

// Number of differences y_j - x_i <= t. Row i (fixed x_i) is ascending in j
// and, for a fixed j, y_j - x_i falls as i grows (rounding is monotone), so
// the prefix length only grows with i: one pass of two pointers.
std::uint64_t count_at_most(std::span<const double> x, std::span<const double> y, double t) {
  std::uint64_t total = 0;
  std::size_t j = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    while (j < y.size() && y[j] - x[i] <= t) ++j;
    total += j;
  }
  return total;
}

// Every difference in (lo, hi].
std::vector<double> differences_between(std::span<const double> x, std::span<const double> y,
                                        double lo, double hi) {
  std::vector<double> out;
  std::size_t first = 0, last = 0;  // per row: y[first..last) is in (lo, hi]
  for (std::size_t i = x.size(); i-- > 0;) {
    // Walking i downwards, y_j - x_i grows, so both bounds only move left;
    // restart from the ends once and move with amortised O(m + n).
    if (i + 1 == x.size()) first = last = y.size();
    while (first > 0 && y[first - 1] - x[i] > lo) --first;
    while (last > 0 && y[last - 1] - x[i] > hi) --last;
    for (std::size_t j = first; j < std::max(first, last); ++j) out.push_back(y[j] - x[i]);
  }
  return out;
}

}  // namespace

double kth_pairwise_difference(std::span<const double> x, std::span<const double> y,
                               std::uint64_t k) {
  const std::uint64_t mn = static_cast<std::uint64_t>(x.size()) * y.size();
  if (k < 1 || k > mn) {
    throw std::invalid_argument(fmt::format("kth_pairwise_difference: k {} outside 1..{}", k, mn));
  }
  double lo = y.front() - x.back();  // smallest difference
  double hi = y.back() - x.front();  // largest difference
  std::uint64_t count_lo = count_at_most(x, y, lo);
  if (count_lo >= k) return lo;
  std::uint64_t count_hi = mn;
  // Invariant: count(<= lo) < k <= count(<= hi).
  const std::uint64_t list_limit = 4 * (x.size() + y.size()) + 64;
  while (count_hi - count_lo > list_limit) {
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) return hi;  // adjacent doubles: (lo, hi] holds only hi
    const std::uint64_t c = count_at_most(x, y, mid);
    if (c >= k) {
      hi = mid;
      count_hi = c;
    } else {
      lo = mid;
      count_lo = c;
    }
  }
  std::vector<double> rest = differences_between(x, y, lo, hi);
  const std::uint64_t rank = k - count_lo;            // 1-based within (lo, hi]
  if (rest.empty() || rank > rest.size()) return hi;  // rounding slack: cannot happen in practice
  auto nth = rest.begin() + static_cast<std::ptrdiff_t>(rank - 1);
  std::nth_element(rest.begin(), nth, rest.end());
  return *nth;
}

HodgesLehmann hodges_lehmann(std::span<const double> x, std::span<const double> y,
                             double confidence) {
  if (x.empty() || y.empty()) throw std::invalid_argument("hodges_lehmann: empty sample");
  const std::vector<double> xs = sorted_copy(x), ys = sorted_copy(y);
  const std::uint64_t m = xs.size(), n = ys.size(), mn = m * n;
  HodgesLehmann r;
  if (mn % 2 == 1) {
    r.shift = kth_pairwise_difference(xs, ys, (mn + 1) / 2);
  } else {
    const double a = kth_pairwise_difference(xs, ys, mn / 2);
    const double b = kth_pairwise_difference(xs, ys, mn / 2 + 1);
    r.shift = a + (b - a) / 2;
  }

  std::vector<double> all(xs);
  all.insert(all.end(), ys.begin(), ys.end());
  std::vector<std::size_t> ties;
  midranks(all, &ties);
  r.exact = ties.empty() && m < kMannWhitneyExactBelow && n < kMannWhitneyExactBelow;
  std::uint64_t k = 1;
  if (r.exact) {
    const auto mu = static_cast<unsigned>(m), nu = static_cast<unsigned>(n);
    const int c = mann_whitney_critical_value(mu, nu, 1 - confidence);
    k = static_cast<std::uint64_t>(std::max(c, 0)) + 1;
    r.confidence = 1 - 2 * mann_whitney_cdf(mu, nu, static_cast<double>(k) - 1);
  } else {
    double tie_term = 0;
    for (std::size_t t : ties) {
      const double td = static_cast<double>(t);
      tie_term += td * td * td - td;
    }
    const double nn = static_cast<double>(m + n), mnd = static_cast<double>(mn);
    const double sigma = std::sqrt(mnd / 12 * ((nn + 1) - tie_term / (nn * (nn - 1))));
    const double z = boost::math::quantile(boost::math::normal(), (1 + confidence) / 2);
    const double kd = std::round(mnd / 2 - z * sigma);
    k = kd < 1 ? 1 : static_cast<std::uint64_t>(kd);
    r.confidence = confidence;
  }
  k = std::min(k, (mn + 1) / 2);
  r.lo = kth_pairwise_difference(xs, ys, k);
  r.hi = kth_pairwise_difference(xs, ys, mn + 1 - k);
  return r;
}

}  // namespace schedrig::analysis
