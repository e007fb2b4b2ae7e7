#include "common/stats/sequential.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <boost/math/distributions/students_t.hpp>

#include "common/plan/plan_yaml.h"
#include "common/stats/normal_draws.h"

namespace schedrig::stats {
namespace {

static_assert(kMaxPairs == kMaxSequentialRounds, "a plan's rounds are the rule's pairs");

constexpr int kPaths = 20000;
constexpr std::uint64_t kSeed = 0x5eb15ec7ULL;

struct PairStats {
  int n = 0;
  double mean = 0;  // of d_i = ln(flipped / as found)
  double se = 0;    // sd / sqrt(n)
};

PairStats paired_log_ratios(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size())
    throw std::invalid_argument(fmt::format(
        "as found has {} iterations, flipped {}: they come in pairs", a.size(), b.size()));
  if (a.size() < 2) throw std::invalid_argument("a look needs at least 2 pairs");
  PairStats s;
  s.n = static_cast<int>(a.size());
  std::vector<double> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!(std::isfinite(a[i]) && std::isfinite(b[i]) && a[i] > 0 && b[i] > 0))
      throw std::invalid_argument(
          fmt::format("pair {}: {} and {}: values must be finite and positive", i + 1, a[i], b[i]));
    d[i] = std::log(b[i] / a[i]);
    s.mean += d[i];
  }
  s.mean /= s.n;
  double ss = 0;
  for (const double x : d) ss += (x - s.mean) * (x - s.mean);
  s.se = std::sqrt(ss / (s.n - 1) / s.n);
  return s;
}

double t_quantile_two_sided(int df, double p) {
  const boost::math::students_t dist(df);
  return boost::math::quantile(boost::math::complement(dist, p / 2));
}

double pct(double log_ratio) { return std::expm1(log_ratio) * 100; }

// The interval of `s` at two-sided level 1 - p.
SequentialLook interval(const PairStats& s, double p) {
  const double half = t_quantile_two_sided(s.n - 1, p) * s.se;
  SequentialLook look;
  look.pairs = s.n;
  look.change_pct = pct(s.mean);
  look.low_pct = pct(s.mean - half);
  look.high_pct = pct(s.mean + half);
  look.nominal_p = p;
  return look;
}

// The smallest two-sided look p-value of each of kPaths normal paths, sorted.
double simulate_nominal_p(const SequentialRule& rule) {
  NormalDraws draws(kSeed);
  std::vector<double> min_p(kPaths);
  std::vector<boost::math::students_t> dist;
  for (int n = rule.min_pairs; n <= rule.max_pairs; ++n) dist.emplace_back(n - 1);
  for (double& path_min : min_p) {
    double sum = 0, sum_sq = 0;
    path_min = 1;
    for (int n = 1; n <= rule.max_pairs; ++n) {
      const double x = draws.next();
      sum += x;
      sum_sq += x * x;
      if (n < rule.min_pairs) continue;
      const double mean = sum / n;
      const double var = std::max(0.0, (sum_sq - n * mean * mean) / (n - 1));
      const double t = std::abs(mean) / std::sqrt(var / n);
      const double p = 2 * boost::math::cdf(boost::math::complement(dist[n - rule.min_pairs], t));
      path_min = std::min(path_min, p);
    }
  }
  std::sort(min_p.begin(), min_p.end());
  // The alpha-quantile's lower 97.5% bound (binomial, normal approximation):
  // the simulation's own error makes the rule stricter, never looser.
  const double k = rule.alpha * kPaths - 2 * std::sqrt(kPaths * rule.alpha * (1 - rule.alpha));
  return min_p[static_cast<std::size_t>(std::max(0.0, k))];
}

}  // namespace

void check_rule(const SequentialRule& rule) {
  if (rule.min_pairs < 3 || rule.min_pairs > kMaxPairs)
    throw std::invalid_argument(
        fmt::format("min {}: at least 3 and at most {} pairs", rule.min_pairs, kMaxPairs));
  if (rule.max_pairs < rule.min_pairs || rule.max_pairs > kMaxPairs)
    throw std::invalid_argument(fmt::format("max {}: from min ({}) to {} pairs", rule.max_pairs,
                                            rule.min_pairs, kMaxPairs));
  if (!(rule.alpha > 0 && rule.alpha < 0.5))
    throw std::invalid_argument(fmt::format("alpha {}: between 0 and 0.5", rule.alpha));
  if (!(rule.delta_pct > 0 && rule.delta_pct < 100))
    throw std::invalid_argument(fmt::format("delta {}%: between 0 and 100", rule.delta_pct));
}

std::string settled_name(Settled s) {
  switch (s) {
    case Settled::kNotYet:
      return "not yet";
    case Settled::kEffect:
      return "effect";
    case Settled::kNoEffect:
      return "no effect";
    case Settled::kUnsettled:
      return "unsettled";
  }
  return "?";
}

double sequential_nominal_p(const SequentialRule& rule) {
  check_rule(rule);
  static std::mutex mu;
  static std::map<std::tuple<int, int, double>, double> cache;
  const auto key = std::make_tuple(rule.min_pairs, rule.max_pairs, rule.alpha);
  std::lock_guard lock(mu);
  const auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  return cache[key] = simulate_nominal_p(rule);
}

SequentialLook sequential_look(std::span<const double> as_found, std::span<const double> flipped,
                               const SequentialRule& rule) {
  const PairStats s = paired_log_ratios(as_found, flipped);
  if (s.n > rule.max_pairs)
    throw std::invalid_argument(
        fmt::format("{} pairs: past the last look ({} pairs)", s.n, rule.max_pairs));
  SequentialLook look = interval(s, sequential_nominal_p(rule));
  if (s.n < rule.min_pairs) {
    look.settled = Settled::kNotYet;
  } else if (look.low_pct > 0 || look.high_pct < 0) {
    look.settled = Settled::kEffect;
  } else if (look.low_pct > -rule.delta_pct && look.high_pct < rule.delta_pct) {
    look.settled = Settled::kNoEffect;
  } else {
    look.settled = s.n == rule.max_pairs ? Settled::kUnsettled : Settled::kNotYet;
  }
  return look;
}

SequentialLook fixed_look(std::span<const double> as_found, std::span<const double> flipped,
                          double alpha) {
  SequentialLook look = interval(paired_log_ratios(as_found, flipped), alpha);
  look.settled = look.low_pct > 0 || look.high_pct < 0 ? Settled::kEffect : Settled::kNoEffect;
  return look;
}

SequentialLook run_sequential(const std::function<std::pair<double, double>()>& next_pair,
                              const SequentialRule& rule) {
  check_rule(rule);
  std::vector<double> a, b;
  SequentialLook look;
  while (look.settled == Settled::kNotYet) {
    const auto [x, y] = next_pair();
    a.push_back(x);
    b.push_back(y);
    if (a.size() >= 2) look = sequential_look(a, b, rule);
  }
  return look;
}

}  // namespace schedrig::stats
