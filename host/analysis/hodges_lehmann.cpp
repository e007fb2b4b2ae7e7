#include "host/analysis/hodges_lehmann.h"

#include <algorithm>
#include <cmath>
#include <optional>
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

// m * n, the number of differences. Throws std::invalid_argument unless
// 1 <= k_first <= k_last <= m * n.
std::uint64_t check_ranks(std::span<const double> x, std::span<const double> y,
                          std::uint64_t k_first, std::uint64_t k_last) {
  const std::uint64_t mn = static_cast<std::uint64_t>(x.size()) * y.size();
  if (k_first < 1 || k_last > mn || k_first > k_last) {
    throw std::invalid_argument(
        fmt::format("kth_pairwise_difference: k {}..{} outside 1..{}", k_first, k_last, mn));
  }
  return mn;
}

// A value range (lo, hi] of the differences and how many are <= each end.
// Invariant: count(<= lo) < k_first (or lo is the minimum and holds
// k_first..), k_last <= count(<= hi).
struct Bracket {
  double lo = 0;
  double hi = 0;
  std::uint64_t count_lo = 0;
  std::uint64_t count_hi = 0;
  bool adjacent = false;  // no value between lo and hi: (lo, hi] holds only hi
};

// From the smallest to the largest difference.
Bracket full_bracket(std::span<const double> x, std::span<const double> y, std::uint64_t mn) {
  Bracket b;
  b.lo = y.front() - x.back();
  b.hi = y.back() - x.front();
  b.count_lo = count_at_most(x, y, b.lo);
  b.count_hi = mn;
  return b;
}

// Interpolates on the counts (the differences are dense near the middle,
// so a guess lands close), aiming alternately just below k_first and just
// above k_last; every third step bisects, so the worst case is a few times
// plain bisection.
double next_guess(const Bracket& b, unsigned step, std::uint64_t k_first, std::uint64_t k_last,
                  std::uint64_t list_limit) {
  if (step % 3 == 2) return b.lo + (b.hi - b.lo) / 2;
  const double span = static_cast<double>(b.count_hi - b.count_lo);
  const double slack = static_cast<double>(list_limit) / 3;
  const double target =
      step % 3 == 0 ? static_cast<double>(k_first) - slack : static_cast<double>(k_last) + slack;
  const double frac =
      std::clamp((target - static_cast<double>(b.count_lo)) / span, 1.0 / 64, 63.0 / 64);
  return b.lo + (b.hi - b.lo) * frac;
}

// Narrows `b` until it holds at most a few more differences than the run
// k_first..k_last, or until lo and hi are adjacent. Returns a count c with
// k_first <= c < k_last when a guess splits the run instead (b then stays
// as it was before that guess).
std::optional<std::uint64_t> narrow(std::span<const double> x, std::span<const double> y,
                                    std::uint64_t k_first, std::uint64_t k_last, Bracket& b) {
  const std::uint64_t list_limit = 2 * (x.size() + y.size()) + 64;
  for (unsigned step = 0; b.count_hi - b.count_lo > list_limit; ++step) {
    const double mid = next_guess(b, step, k_first, k_last, list_limit);
    if (!(mid > b.lo && mid < b.hi)) {
      b.adjacent = true;
      break;
    }
    const std::uint64_t c = count_at_most(x, y, mid);
    if (c >= k_last) {
      b.hi = mid;
      b.count_hi = c;
    } else if (c < k_first) {
      b.lo = mid;
      b.count_lo = c;
    } else {
      return c;
    }
  }
  return std::nullopt;
}

// The order statistics k_first..k_last out of a narrowed bracket: those
// <= lo (only when lo is the minimum itself), hi when lo and hi are
// adjacent, else the differences in (lo, hi] listed once and selected.
std::vector<double> select_in_bracket(std::span<const double> x, std::span<const double> y,
                                      std::uint64_t k_first, std::uint64_t k_last,
                                      const Bracket& b) {
  std::vector<double> out;
  std::vector<double> rest;
  bool listed = false;
  for (std::uint64_t k = k_first; k <= k_last; ++k) {
    if (k <= b.count_lo) {
      out.push_back(b.lo);
      continue;
    }
    if (b.adjacent) {
      out.push_back(b.hi);
      continue;
    }
    if (!listed) {
      rest = differences_between(x, y, b.lo, b.hi);
      listed = true;
    }
    const std::uint64_t rank = k - b.count_lo;  // 1-based within (lo, hi]
    if (rest.empty() || rank > rest.size()) {   // rounding slack: cannot happen in practice
      out.push_back(b.hi);
      continue;
    }
    auto nth = rest.begin() + static_cast<std::ptrdiff_t>(rank - 1);
    std::nth_element(rest.begin(), nth, rest.end());
    out.push_back(*nth);
  }
  return out;
}

// The order statistics k_first..k_last (1-based, a short run) of the
// differences: bisection on the value until (lo, hi] holds them and few
// others, then those few listed and selected.
std::vector<double> order_statistics(std::span<const double> x, std::span<const double> y,
                                     std::uint64_t k_first, std::uint64_t k_last) {
  const std::uint64_t mn = check_ranks(x, y, k_first, k_last);
  Bracket b = full_bracket(x, y, mn);
  if (b.count_lo >= k_last) return std::vector<double>(k_last - k_first + 1, b.lo);
  if (const auto c = narrow(x, y, k_first, k_last, b)) {
    // c splits the run: finish each end on its own.
    std::vector<double> out = order_statistics(x, y, k_first, *c);
    const std::vector<double> rest = order_statistics(x, y, *c + 1, k_last);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }
  return select_in_bracket(x, y, k_first, k_last, b);
}

}  // namespace

double kth_pairwise_difference(std::span<const double> x, std::span<const double> y,
                               std::uint64_t k) {
  return order_statistics(x, y, k, k).front();
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
    const std::vector<double> mid = order_statistics(xs, ys, mn / 2, mn / 2 + 1);
    r.shift = mid[0] + (mid[1] - mid[0]) / 2;
  }

  const std::vector<std::size_t> ties = tie_groups(xs, ys);
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
