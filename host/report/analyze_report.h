// `schedrig analyze FILE.csv` for people and programs: the analysis of
// host/compare/analyze_series.h as JSON and as text tables.
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "host/compare/analyze_series.h"

namespace schedrig::report {

// {"method","lower_is_better","variants":[series_json...],
//  "comparisons":[{comparison_json..., "cliff":{cliff_json}, "spread"}]}
// (compare_json.h and cliff_json.h for the members).
nlohmann::json analyze_json(const compare::AnalyzeReport& report);

// A table of the variants (n, median, mean, min, max, CoV and the series in
// words), a table of the comparisons (change with its mark, 95% CI, p, test,
// verdict, and a CLIFF column with describe_cliff's words when some row has
// any), notes and the legend.
void print_analyze_text(const compare::AnalyzeReport& report, std::ostream& out);

}  // namespace schedrig::report
