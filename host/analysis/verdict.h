// A variant against its baseline, per case and metric: change of medians, a
// 95% confidence interval for the change, a p-value and the verdict
// (I)mprovement, (R)egression, none, or insufficient (docs/architecture.md
// "Statistics"; the rules and their sources are in docs/statistics.md).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "host/analysis/descriptive.h"
#include "host/analysis/series.h"

namespace schedrig::analysis {

// --method: auto (the rule below), mwu, welch, ci-overlap.
enum class Method { kAuto, kMannWhitney, kWelch, kCiOverlap };
// The test a comparison actually used.
enum class StatTest { kNone, kMannWhitney, kWelchLog, kWelch, kCiOverlap };
enum class Verdict { kImprovement, kRegression, kNone, kInsufficient };

// "auto", "mwu", "welch", "ci-overlap"
std::string_view to_string(Method m);
// "none", "mann-whitney", "welch-log", "welch", "ci-overlap"
std::string_view to_string(StatTest t);
// "improvement", "regression", "none", "insufficient"
std::string_view to_string(Verdict v);
// The mark in tables: "(I)", "(R)", "" for none, "?" for insufficient.
std::string_view mark(Verdict v);
// Appends `text` to a "; "-separated note.
void append_note(std::string& note, const std::string& text);
// Parses a --method word (as to_string writes it); nullopt for anything else.
std::optional<Method> parse_method(std::string_view word);

struct CompareOptions {
  Method method = Method::kAuto;
  bool higher_is_better = true;
  double threshold_pct = 0;  // |change_pct| below this is never marked
  double confidence = 0.95;  // two-sided
};

// Fewer than this many iterations on either side: insufficient.
inline constexpr std::size_t kMinIterations = 2;
// auto uses the rank test (Mann–Whitney + Hodges–Lehmann) when both sides
// have at least this many iterations, else Welch's t on log values.
inline constexpr std::size_t kRankTestMinIterations = 5;

// Rosenbaum's exceedance test of the variant against the baseline's range
// (Rosenbaum 1954; docs/statistics.md "The cliff"): how many variant
// iterations fall below the baseline's minimum or above its maximum, and
// how unlikely that many are when both sides come from one distribution.
// Filled by compare_samples for methods auto and mwu (host/analysis/cliff.h).
struct Cliff {
  // Methods auto and mwu with both sides >= kMinIterations (welch and
  // ci-overlap never test a cliff).
  bool tested = false;
  // A cliff of all but one of the variant's iterations could reach the
  // confidence asked for at these sizes (auto: both sides also >=
  // kRankTestMinIterations). Not decidable: describe_cliff says so.
  bool decidable = false;
  std::size_t baseline_n = 0, variant_n = 0;  // iterations per side when tested
  // Variant iterations strictly below the baseline's min / above its max.
  std::size_t below = 0, above = 0;
  // Exact permutation p-value of each one tail: P(K >= below), P(K >= above)
  // under exchangeability (cliff.h exceedance_p). NaN when not tested.
  double p_below = kNaN, p_above = kNaN;
  // Each tail at (1 - confidence) / 4: the exceedance test two-sided at
  // alpha / 2, Bonferroni with the rank test at alpha / 2. Only when decidable.
  bool significant_below = false, significant_above = false;
  // Median of the exceeding iterations of the tail with the smaller p-value
  // (below on a tie), in the metric's unit; NaN when that tail has none or
  // both tails are significant.
  double level = kNaN;
  double level_change_pct = kNaN;  // 100 (level - median_b) / |median_b|
};

struct Comparison {
  // 100 (median_v - median_b) / |median_b|; NaN when the baseline median is
  // 0 or a side is empty.
  double change_pct = kNaN;
  // Confidence interval of the change in percent (NaN, NaN when insufficient):
  //  mann-whitney: Hodges–Lehmann interval / |median_b|;
  //  welch-log:    100 (exp(interval of mean log difference) - 1), the ratio
  //                of geometric means;
  //  welch:        interval of mean difference / |mean_b| (non-positive data);
  //  ci-overlap:   [(lo_v - hi_b), (hi_v - lo_b)] / |mean_b|, the changes
  //                the two intervals mean +- 1.96 sd allow.
  double ci_lo_pct = kNaN, ci_hi_pct = kNaN;
  double p_value = kNaN;  // two-sided; NaN for ci-overlap and insufficient
  StatTest test = StatTest::kNone;
  bool parametric = false;   // Welch or ci-overlap (normal theory)
  bool significant = false;  // at the confidence asked for, before --threshold
  Verdict verdict = Verdict::kInsufficient;
  std::string note;  // "; "-separated remarks, "" when none
  Cliff cliff;
  // Both cliff tails significant: the variant spreads beyond both ends of
  // the baseline ("spread: k below, j above"); no (I)/(R) from the cliff.
  bool spread = false;
};

// The test alone: baseline and variant values (finite; any order).
//  Verdict::kInsufficient when a side has < kMinIterations values.
//  auto: Mann–Whitney U (two-sided) with the Hodges–Lehmann interval when
//    both sides have >= kRankTestMinIterations, else Welch's t on log
//    values (raw values if any value <= 0), marked parametric, with a note.
//  significant: p < 1 - confidence (ci-overlap: the intervals are apart).
//    Rank test (auto with both sides >= kRankTestMinIterations, and mwu):
//    Mann–Whitney p < (1 - confidence) / 2 or one cliff tail significant
//    (Cliff), Bonferroni so that the two together keep 1 - confidence.
//  Direction: the test's own estimate (mwu: sign of U_v - m n / 2; Welch:
//    mean difference; ci-overlap: mean difference) against higher_is_better;
//    when only the cliff is significant, its tail (below: lower). A spread
//    (both tails) gives no direction of its own.
Comparison compare_samples(std::span<const double> baseline, std::span<const double> variant,
                           const CompareOptions& options = {});

// Adds what the series analyses say to `c.note`: a side that is bimodal,
// drifting, noisy (CoV > 10%) or autocorrelated (n >= 20, lag-1 r >= 0.5,
// so the p-value overstates the evidence).
void add_series_notes(Comparison& c, const SeriesAnalysis& baseline, const SeriesAnalysis& variant);

// compare_samples, then add_series_notes with analyses of both sides (which
// are returned through the pointers when given).
Comparison compare_series(std::span<const double> baseline, std::span<const double> variant,
                          const CompareOptions& options = {},
                          SeriesAnalysis* baseline_analysis = nullptr,
                          SeriesAnalysis* variant_analysis = nullptr);

}  // namespace schedrig::analysis
