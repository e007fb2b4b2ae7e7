#include "host/analysis/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <utility>

#include <boost/math/distributions/normal.hpp>

namespace schedrig::analysis {
namespace {

// f(i, j; u) for i = 0..m (rows computed one at a time) and j = 0..n, with
// m <= n: the current row keeps j = 0..n, each a vector over u = 0..i*j.
std::vector<double> compute_counts(unsigned m, unsigned n) {
  if (m > n) std::swap(m, n);
  // prev[j] = f(i-1, j; .), cur[j] = f(i, j; .)
  std::vector<std::vector<double>> prev(n + 1), cur(n + 1);
  for (unsigned j = 0; j <= n; ++j) prev[j] = {1.0};  // f(0, j) = 1 at u = 0
  for (unsigned i = 1; i <= m; ++i) {
    cur[0] = {1.0};  // f(i, 0) = 1 at u = 0
    for (unsigned j = 1; j <= n; ++j) {
      std::vector<double> f(static_cast<std::size_t>(i) * j + 1, 0.0);
      // f(i-1, j; u - j): the largest of the i values is above all j others.
      for (std::size_t u = 0; u < prev[j].size(); ++u) f[u + j] += prev[j][u];
      // f(i, j-1; u): the largest value overall belongs to the y side.
      for (std::size_t u = 0; u < cur[j - 1].size(); ++u) f[u] += cur[j - 1][u];
      cur[j] = std::move(f);
    }
    std::swap(prev, cur);
  }
  return prev[n];
}

const std::vector<double>& cached_counts(unsigned m, unsigned n) {
  static std::mutex mu;
  static std::map<std::pair<unsigned, unsigned>, std::vector<double>> cache;
  std::lock_guard lock(mu);
  auto key = std::minmax(m, n);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, compute_counts(m, n)).first;
  return it->second;
}

}  // namespace

std::vector<double> mann_whitney_counts(unsigned m, unsigned n) {
  if (m < kMannWhitneyExactBelow && n < kMannWhitneyExactBelow) return cached_counts(m, n);
  return compute_counts(m, n);
}

double mann_whitney_cdf(unsigned m, unsigned n, double u) {
  if (u < 0) return 0;
  const double mn = static_cast<double>(m) * n;
  if (u >= mn) return 1;
  const std::vector<double> counts = mann_whitney_counts(m, n);
  const auto last = static_cast<std::size_t>(std::floor(u));
  double below = 0, total = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    total += counts[k];
    if (k <= last) below += counts[k];
  }
  return below / total;
}

int mann_whitney_critical_value(unsigned m, unsigned n, double alpha_two_sided) {
  if (m == 0 || n == 0) return -1;
  const std::vector<double> counts = mann_whitney_counts(m, n);
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  double cumulative = 0;
  int c = -1;
  for (std::size_t u = 0; u < counts.size(); ++u) {
    cumulative += counts[u];
    // A relative slack of 1e-12 keeps exact boundary cases (P = alpha/2) in.
    if (cumulative / total > alpha_two_sided / 2 * (1 + 1e-12)) break;
    c = static_cast<int>(u);
  }
  return c;
}

std::vector<double> midranks(std::span<const double> values, std::vector<std::size_t>* tie_sizes) {
  const std::size_t n = values.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(n);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && values[order[j]] == values[order[i]]) ++j;
    // positions i..j-1 (0-based) share ranks i+1..j: mean (i + 1 + j) / 2
    const double rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k) ranks[order[k]] = rank;
    if (tie_sizes && j - i > 1) tie_sizes->push_back(j - i);
    i = j;
  }
  return ranks;
}

std::vector<std::size_t> tie_groups(std::span<const double> a, std::span<const double> b) {
  std::vector<std::size_t> out;
  std::size_t i = 0, j = 0, run = 0;
  double last = 0;
  while (i < a.size() || j < b.size()) {
    const bool take_a = j >= b.size() || (i < a.size() && a[i] <= b[j]);
    const double v = take_a ? a[i++] : b[j++];
    if (run > 0 && v == last) {
      ++run;
    } else {
      if (run > 1) out.push_back(run);
      run = 1;
      last = v;
    }
  }
  if (run > 1) out.push_back(run);
  return out;
}

MannWhitneyResult mann_whitney(std::span<const double> x, std::span<const double> y) {
  if (x.empty() || y.empty()) throw std::invalid_argument("mann_whitney: empty sample");
  std::vector<double> xs(x.begin(), x.end()), ys(y.begin(), y.end());
  std::sort(xs.begin(), xs.end());
  std::sort(ys.begin(), ys.end());
  const std::size_t m = xs.size(), n = ys.size(), total = m + n;
  // U_y = sum over y_j of #(x < y_j) + #(x == y_j) / 2, the rank-sum form
  // R_y - n (n + 1) / 2 without the ranks.
  double u_y = 0;
  std::size_t below = 0, at_most = 0;
  for (double v : ys) {
    while (below < m && xs[below] < v) ++below;
    if (at_most < below) at_most = below;
    while (at_most < m && xs[at_most] <= v) ++at_most;
    u_y += static_cast<double>(below) + static_cast<double>(at_most - below) / 2;
  }
  const std::vector<std::size_t> ties = tie_groups(xs, ys);
  const double mn = static_cast<double>(m) * static_cast<double>(n);
  MannWhitneyResult r;
  r.u_y = u_y;
  r.u_x = mn - r.u_y;
  r.exact = ties.empty() && m < kMannWhitneyExactBelow && n < kMannWhitneyExactBelow;
  if (r.exact) {
    const double u = std::min(r.u_x, r.u_y);
    r.p_value = std::min(1.0, 2 * mann_whitney_cdf(static_cast<unsigned>(m),
                                                   static_cast<unsigned>(n), std::round(u)));
    return r;
  }
  double tie_term = 0;
  for (std::size_t t : ties) {
    const double td = static_cast<double>(t);
    tie_term += td * td * td - td;
  }
  const double nn = static_cast<double>(total);
  const double variance = mn / 12 * ((nn + 1) - tie_term / (nn * (nn - 1)));
  if (!(variance > 0)) {
    r.p_value = 1;
    return r;
  }
  const double diff = r.u_y - mn / 2;
  const double correction = diff > 0 ? 0.5 : diff < 0 ? -0.5 : 0.0;
  r.z = (diff - correction) / std::sqrt(variance);
  const boost::math::normal standard;
  r.p_value = std::min(1.0, 2 * boost::math::cdf(standard, -std::fabs(r.z)));
  return r;
}

}  // namespace schedrig::analysis
