#include "host/analysis/cliff.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "host/analysis/descriptive.h"
#include "host/analysis/series.h"

namespace schedrig::analysis {

double exceedance_p(std::size_t m, std::size_t n, std::size_t k) {
  if (k > n) return 0;
  double p = 1;
  for (std::size_t i = 0; i < k; ++i) {
    p *= static_cast<double>(n - i) / static_cast<double>(m + n - i);
  }
  return p;
}

std::size_t exceedance_critical_count(std::size_t m, std::size_t n, double alpha_tail) {
  for (std::size_t k = 0; k <= n; ++k) {
    if (exceedance_p(m, n, k) < alpha_tail) return k;
  }
  return n + 1;
}

bool cliff_decidable(std::size_t m, std::size_t n, double alpha_tail) {
  return n >= 2 && exceedance_critical_count(m, n, alpha_tail) < n;
}

double cliff_alpha_tail(double confidence) { return (1 - confidence) / 4; }

namespace {

// Median of the variant values that `beyond` picks; NaN when none.
template <typename Beyond>
double median_beyond(std::span<const double> variant, Beyond beyond) {
  std::vector<double> picked;
  std::copy_if(variant.begin(), variant.end(), std::back_inserter(picked), beyond);
  return median_in_place(picked);
}

}  // namespace

Cliff exceedance_test(std::span<const double> baseline, std::span<const double> variant,
                      double confidence) {
  Cliff c;
  c.tested = true;
  const std::size_t m = baseline.size(), n = variant.size();
  c.baseline_n = m;
  c.variant_n = n;
  const auto [lo_it, hi_it] = std::minmax_element(baseline.begin(), baseline.end());
  const double lo = *lo_it, hi = *hi_it;
  const auto below = [lo](double v) { return v < lo; };
  const auto above = [hi](double v) { return v > hi; };
  c.below = static_cast<std::size_t>(std::count_if(variant.begin(), variant.end(), below));
  c.above = static_cast<std::size_t>(std::count_if(variant.begin(), variant.end(), above));
  c.p_below = exceedance_p(m, n, c.below);
  c.p_above = exceedance_p(m, n, c.above);
  const double alpha_tail = cliff_alpha_tail(confidence);
  c.decidable = cliff_decidable(m, n, alpha_tail);
  c.significant_below = c.decidable && c.p_below < alpha_tail;
  c.significant_above = c.decidable && c.p_above < alpha_tail;
  if (c.significant_below && c.significant_above) return c;
  const bool low_tail = c.p_below <= c.p_above;
  c.level = low_tail ? median_beyond(variant, below) : median_beyond(variant, above);
  const double med_b = median(baseline);
  if (std::isfinite(c.level) && med_b != 0) {
    c.level_change_pct = 100.0 * (c.level - med_b) / std::fabs(med_b);
  }
  return c;
}

namespace {

// "n=5" for equal sides, "n=10 vs 4" (baseline vs variant) otherwise.
std::string sizes_text(const Cliff& k) {
  return k.baseline_n == k.variant_n ? fmt::format("n={}", k.baseline_n)
                                     : fmt::format("n={} vs {}", k.baseline_n, k.variant_n);
}

}  // namespace

std::string describe_cliff(const Comparison& c) {
  const Cliff& k = c.cliff;
  if (!k.tested) return "";
  if (c.spread) return fmt::format("spread: {} below, {} above", k.below, k.above);
  if (!k.decidable) return fmt::format("cliff undecidable at {}", sizes_text(k));
  const std::size_t count = k.significant_below ? k.below : k.significant_above ? k.above : 0;
  if (count == 0 || count == k.variant_n) return "";
  const std::string words =
      fmt::format("cliff: {} of {} iterations at ~{}", count, k.variant_n, format_compact(k.level));
  if (!std::isfinite(k.level_change_pct)) return words;  // baseline median 0
  return fmt::format("{} ({:+.1f}%)", words, k.level_change_pct);
}

}  // namespace schedrig::analysis
