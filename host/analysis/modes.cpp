#include "host/analysis/modes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <boost/math/distributions/chi_squared.hpp>

namespace schedrig::analysis {
namespace {

// Upper `confidence` bound of sigma from the sample SD of m values:
// sd * sqrt((m - 1) / chi2_{1 - confidence}(m - 1)).
double spread_of(std::span<const double> group, double confidence) {
  const std::size_t m = group.size();
  if (m < 2) return 0;
  const double sd = summarize(group).sd;
  if (sd == 0) return 0;
  const double df = static_cast<double>(m - 1);
  // double precision is plenty here; Boost's default promotes to long double.
  using Policy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
  const double q = boost::math::quantile(boost::math::chi_squared_distribution<double, Policy>(df),
                                         1 - confidence);
  return sd * std::sqrt(df / q);
}

Mode make_mode(std::span<const double> values, std::vector<std::size_t> positions) {
  Mode mode;
  std::vector<double> members;
  members.reserve(positions.size());
  for (std::size_t p : positions) members.push_back(values[p]);
  const Summary s = summarize(members);
  mode.center = s.median;
  mode.count = s.n;
  mode.cov_pct = s.cov_pct;
  mode.positions = std::move(positions);
  return mode;
}

}  // namespace

std::size_t best_two_group_split(std::span<const double> sorted) {
  const std::size_t n = sorted.size();
  if (n < 2) throw std::invalid_argument("best_two_group_split: fewer than two values");
  // Centre on the median so the prefix sums of squares do not cancel.
  const double c = median_of_sorted(sorted);
  std::vector<double> sum(n + 1, 0.0), sq(n + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double v = sorted[i] - c;
    sum[i + 1] = sum[i] + v;
    sq[i + 1] = sq[i] + v * v;
  }
  auto within = [&](std::size_t a, std::size_t b) {  // sum of squares of [a, b) about its mean
    const double s = sum[b] - sum[a];
    return (sq[b] - sq[a]) - s * s / static_cast<double>(b - a);
  };
  std::size_t best = 1;
  double best_ss = std::numeric_limits<double>::infinity();
  for (std::size_t k = 1; k < n; ++k) {
    const double ss = within(0, k) + within(k, n);
    if (ss < best_ss) {
      best_ss = ss;
      best = k;
    }
  }
  return best;
}

ModeAnalysis analyze_modes(std::span<const double> values, const ModeOptions& options) {
  ModeAnalysis r;
  const std::size_t n = values.size();
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), 0);
  if (n == 0) return r;
  if (n < 2) {
    r.modes.push_back(make_mode(values, all));
    return r;
  }
  const std::vector<double> sorted = sorted_copy(values);
  const std::size_t k = best_two_group_split(sorted);
  r.low_count = k;
  r.high_count = n - k;
  const std::span<const double> low(sorted.data(), k), high(sorted.data() + k, n - k);
  // Cores: drop the members in transit, those nearest the other group.
  const auto transit = [&](std::size_t size) {
    return static_cast<std::size_t>(
        std::floor(options.transit_fraction * static_cast<double>(size)));
  };
  const std::span<const double> low_core = low.first(low.size() - transit(low.size()));
  const std::span<const double> high_core = high.last(high.size() - transit(high.size()));
  r.gap = high_core.front() - low_core.back();
  const double med = median_of_sorted(sorted);
  r.gap_pct = med == 0 ? kNaN : 100.0 * r.gap / std::fabs(med);
  const double spread = std::max(spread_of(low_core, options.spread_confidence),
                                 spread_of(high_core, options.spread_confidence));
  r.gap_to_spread = spread > 0  ? r.gap / spread
                    : r.gap > 0 ? std::numeric_limits<double>::infinity()
                                : 0.0;
  r.bimodal = low.size() >= options.min_group && high.size() >= options.min_group && r.gap > 0 &&
              r.gap_pct >= options.min_gap_pct && r.gap_to_spread >= options.min_gap_to_spread;
  if (!r.bimodal) {
    r.modes.push_back(make_mode(values, all));
    return r;
  }
  // Members by threshold: the gap is > 0, so every value is below or above it.
  const double threshold = high.front();
  std::vector<std::size_t> low_pos, high_pos;
  bool previous_high = false;
  for (std::size_t p = 0; p < n; ++p) {
    const bool is_high = values[p] >= threshold;
    (is_high ? high_pos : low_pos).push_back(p);
    if (p > 0 && is_high != previous_high) ++r.flips;
    previous_high = is_high;
  }
  Mode lo_mode = make_mode(values, std::move(low_pos));
  Mode hi_mode = make_mode(values, std::move(high_pos));
  if (hi_mode.count > lo_mode.count) {
    r.modes.push_back(std::move(hi_mode));
    r.modes.push_back(std::move(lo_mode));
  } else {
    r.modes.push_back(std::move(lo_mode));
    r.modes.push_back(std::move(hi_mode));
  }
  return r;
}

}  // namespace schedrig::analysis
