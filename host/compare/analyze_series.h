// `schedrig analyze FILE.csv`: the per-variant analysis and the comparisons
// with the `baseline` variant, on raw numbers rather than stored runs
// (docs/architecture.md "Statistics"). host/report/analyze_report.h renders it.
#pragma once

#include <string>
#include <vector>

#include "host/analysis/series.h"
#include "host/analysis/verdict.h"
#include "host/compare/series_csv.h"

namespace schedrig::compare {

// The reference variant's name in an analyze CSV.
inline constexpr const char* kBaselineVariant = "baseline";

struct AnalyzeOptions {
  bool lower_is_better = false;
  analysis::Method method = analysis::Method::kAuto;
  double threshold_pct = 0;
};

// The analysis of one CSV: every series and each one's comparison with the baseline.
struct AnalyzeReport {
  AnalyzeOptions options;
  std::vector<NamedSeries> series;                 // baseline first, then as in the file
  std::vector<analysis::SeriesAnalysis> analyses;  // parallel to series
  // One per series after the baseline, in order.
  std::vector<analysis::Comparison> comparisons;
};

// Analyses every series and compares each with `baseline`. Throws CsvError
// ("NAME: no variant named 'baseline' (variants: ...)") when there is none.
AnalyzeReport analyze_series_set(std::vector<NamedSeries> series, const AnalyzeOptions& options,
                                 const std::string& name);

}  // namespace schedrig::compare
