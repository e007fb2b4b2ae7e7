// The boot as the unit of a cross-run comparison (docs/statistics.md
// "Boots"): every kernel A/B crosses a reboot, and boot-to-boot variance is
// real, so with several boots per side the verdict is Welch's t on the logs
// of per-boot medians, the degrees of freedom from the boots, beside the
// iteration-level row.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "host/analysis/descriptive.h"
#include "host/analysis/verdict.h"

namespace schedrig::analysis {

// Fewer boots than this on either side: kInsufficient.
inline constexpr std::size_t kMinBootsPerSide = 2;

// One side's iterations grouped by boot (each inner vector one boot's values,
// finite); boots without values are not counted.
struct BootComparison {
  std::size_t baseline_boots = 0, variant_boots = 0;
  // 100 (exp(mean ln med_v - mean ln med_b) - 1): the ratio of the geometric
  // means of the per-boot medians, in percent (differences of the means of
  // the medians in % of the baseline's when a median is <= 0).
  double change_pct = kNaN;
  double ci_lo_pct = kNaN, ci_hi_pct = kNaN;  // at options.confidence, same scale
  double p_value = kNaN;                      // Welch's t on logs of per-boot medians
  Verdict verdict = Verdict::kInsufficient;   // kInsufficient below kMinBootsPerSide
  std::string note;                           // "; "-separated, "" when none
};

// Boot-level comparison: per-boot medians, then welch_t_test (welch.h) on
// their logs (raw medians, with a note, when one is <= 0). Significant when
// p < 1 - options.confidence; direction and --threshold as compare_samples.
// Below kMinBootsPerSide on a side: kInsufficient with the note "fewer than
// 2 boots per side (n=1 vs 3)".
BootComparison compare_boots(const std::vector<std::vector<double>>& baseline,
                             const std::vector<std::vector<double>>& variant,
                             const CompareOptions& options);

// The median of each non-empty boot, in order.
std::vector<double> boot_medians(const std::vector<std::vector<double>>& boots);

}  // namespace schedrig::analysis
