// `schedrig analyze FILE.csv`: the per-variant analysis and the comparisons
// with the `baseline` variant, on raw numbers rather than stored runs.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

// {"method","lower_is_better","variants":[series_json...],
//  "comparisons":[comparison_json...]} (compare_json.h for the members).
nlohmann::json analyze_json(const AnalyzeReport& report);

// A table of the variants (n, median, mean, min, max, CoV and the series in
// words), a table of the comparisons (change with its mark, 95% CI, p, test,
// verdict), notes and the legend.
void print_analyze_text(const AnalyzeReport& report, std::ostream& out);

}  // namespace schedrig::compare
