#include "host/compare/analyze_series.h"

#include <algorithm>

#include <fmt/format.h>

namespace schedrig::compare {
namespace {

// The series named kBaselineVariant moved to the front (the others keep
// their order). Throws CsvError naming `name` and the variants when there is none.
void baseline_first(std::vector<NamedSeries>& series, const std::string& name) {
  auto base = std::find_if(series.begin(), series.end(),
                           [](const NamedSeries& s) { return s.name == kBaselineVariant; });
  if (base == series.end()) {
    std::string names;
    for (const auto& s : series)
      names = names.empty() ? s.name : fmt::format("{}, {}", names, s.name);
    throw CsvError(
        fmt::format("{}: no variant named '{}' (variants: {})", name, kBaselineVariant, names));
  }
  std::rotate(series.begin(), base, base + 1);
}

}  // namespace

AnalyzeReport analyze_series_set(std::vector<NamedSeries> series, const AnalyzeOptions& options,
                                 const std::string& name) {
  baseline_first(series, name);
  AnalyzeReport r;
  r.options = options;
  r.series = std::move(series);
  for (const auto& s : r.series) r.analyses.push_back(analysis::analyze_series(s.values));
  analysis::CompareOptions o;
  o.method = options.method;
  o.higher_is_better = !options.lower_is_better;
  o.threshold_pct = options.threshold_pct;
  for (std::size_t i = 1; i < r.series.size(); ++i) {
    analysis::Comparison c = analysis::compare_samples(r.series[0].values, r.series[i].values, o);
    analysis::add_series_notes(c, r.analyses[0], r.analyses[i]);
    r.comparisons.push_back(std::move(c));
  }
  return r;
}

}  // namespace schedrig::compare
