// The comparison for programs: JSON (compare --json, analyze --json) and
// CSV (compare --csv). NaN values are written as JSON null and empty CSV
// fields.
#pragma once

#include <ostream>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "host/analysis/series.h"
#include "host/analysis/verdict.h"
#include "host/compare/compare_table.h"

namespace schedrig::report {

// {"name","n","median","mean","min","max","cov_pct","bimodal",
//  "drift":{"present","tau","change_pct"},
//  "modes":[{"center","count","cov_pct","iterations"}],"flips"}
// `iterations` are the iteration numbers of the values (parallel to the
// series the analysis was made from); modes list them.
nlohmann::json series_json(const std::string& name, const analysis::SeriesAnalysis& a,
                           std::span<const unsigned> iterations);

// {"variant","change_pct","ci95_pct":[lo,hi],"p_value","test","parametric",
//  "verdict","note","cliff":{cliff_json},"spread"}
nlohmann::json comparison_json(const std::string& variant, const analysis::Comparison& c);

// {"baseline_boots","variant_boots","change_pct","ci95_pct":[lo,hi],"p_value",
//  "test":"welch-log-boot-medians","verdict","note"}
nlohmann::json boot_comparison_json(const analysis::BootComparison& b);

// {"run","against","baseline","method","threshold_pct","confidence",
//  "disturbed" (the --disturbed policy),
//  "runs":[{"run","side" ("run"|"against"),"status","reason","boot_id",
//           "ok_iterations","planned_iterations","disturbed","left_out"}],
//  "boots":{"against","run"} (distinct known boot ids a side; null within a run),
//  "fingerprint_differences":[{"field","against","run"}],
//  "topology_differences":[{"field","against","run"}],"forced":[...],"unmatched":[...],
//  "rows":[{"case","variant","metric","unit","direction","primary",
//           "baseline":{"run", series_json...},
//           "variants":[{"run", series_json..., "comparison":{comparison_json},
//                        "by_boot":{boot_comparison_json} or null within a run}]}]}
// "against" and a row's "variant" are null within one run. A variant
// without values for the metric has "n": 0 and a comparison of
// "insufficient".
nlohmann::json compare_json(const compare::Table& table);

// One line per (case, metric, variant) with a header:
// case,variant,metric,unit,direction,baseline_run,baseline_variant,
// baseline_median,baseline_n,baseline_cov_pct,run,compared_variant,median,n,cov_pct,
// change_pct,ci95_lo_pct,ci95_hi_pct,p_value,test,parametric,verdict,note,
// cliff (describe_cliff), boot_change_pct,boot_p_value,boot_verdict (across runs)
// (RFC 4180 quoting where a field holds a comma, quote or newline).
void print_compare_csv(const compare::Table& table, std::ostream& out);

// A JSON number, or null for NaN and infinities.
nlohmann::json json_number(double v);

}  // namespace schedrig::report
