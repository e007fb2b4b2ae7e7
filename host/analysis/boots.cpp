#include "host/analysis/boots.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "host/analysis/welch.h"

namespace schedrig::analysis {

std::vector<double> boot_medians(const std::vector<std::vector<double>>& boots) {
  std::vector<double> out;
  for (const auto& boot : boots) {
    if (!boot.empty()) out.push_back(median(boot));
  }
  return out;
}

namespace {

// Welch's t on the logs of the medians (a ratio), or on the medians
// themselves when one is <= 0 (a difference in % of the baseline's mean).
void welch_on_medians(const std::vector<double>& b, const std::vector<double>& v,
                      const CompareOptions& options, BootComparison& r) {
  const bool ratio = all_positive(b) && all_positive(v);
  const WelchResult w = ratio ? welch_t_test(log_values(b), log_values(v), options.confidence)
                              : welch_t_test(b, v, options.confidence);
  r.p_value = w.p_value;
  if (ratio) {
    r.change_pct = 100.0 * std::expm1(w.diff);
    r.ci_lo_pct = 100.0 * std::expm1(w.lo);
    r.ci_hi_pct = 100.0 * std::expm1(w.hi);
    return;
  }
  const double mean_b = summarize(b).mean;
  if (mean_b == 0) return;
  r.change_pct = 100.0 * w.diff / std::fabs(mean_b);
  r.ci_lo_pct = 100.0 * w.lo / std::fabs(mean_b);
  r.ci_hi_pct = 100.0 * w.hi / std::fabs(mean_b);
  r.note = "medians <= 0: Welch's t on raw medians";
}

}  // namespace

BootComparison compare_boots(const std::vector<std::vector<double>>& baseline,
                             const std::vector<std::vector<double>>& variant,
                             const CompareOptions& options) {
  BootComparison r;
  const std::vector<double> b = boot_medians(baseline), v = boot_medians(variant);
  r.baseline_boots = b.size();
  r.variant_boots = v.size();
  if (b.size() < kMinBootsPerSide || v.size() < kMinBootsPerSide) {
    r.note = fmt::format("fewer than {} boots per side (n={} vs {})", kMinBootsPerSide, b.size(),
                         v.size());
    return r;
  }
  welch_on_medians(b, v, options, r);
  const bool significant = r.p_value < 1 - options.confidence;
  if (!significant || !std::isfinite(r.change_pct) || r.change_pct == 0) {
    r.verdict = Verdict::kNone;
  } else if (std::fabs(r.change_pct) < options.threshold_pct) {
    r.verdict = Verdict::kNone;
    append_note(r.note,
                fmt::format("significant, but below the {:g}% threshold", options.threshold_pct));
  } else {
    r.verdict = (r.change_pct > 0) == options.higher_is_better ? Verdict::kImprovement
                                                               : Verdict::kRegression;
  }
  return r;
}

}  // namespace schedrig::analysis
