// The comparison for people (docs/statistics.md "Outputs"): a header (the
// runs, runs not ok, disturbed iterations left out, boots, fingerprint and
// topology differences), then per case and metric a line for the baseline
// and one per variant (its median with unit, n, CoV, change with its mark,
// the 95% interval and the p-value), a legend, and notes in words.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "host/analysis/verdict.h"
#include "host/compare/compare_table.h"

namespace schedrig::report {

struct TableOptions {
  // Every metric; by default only each case's primary metric and the
  // workload's p50/p99 latencies (shown_by_default).
  bool all_metrics = false;
};

// Writes the header, the table, the legend and the notes (compare_notes.h).
// Change cells read "+1.82% (I)", "-0.22%", "+3.1% ?" (insufficient) or "-"
// (no values); "*" after the mark flags a parametric result from few
// iterations (auto method); "bimodal"/"drift" follow a median whose series
// is one.
void print_compare_table(const compare::Table& table, std::ostream& out,
                         const TableOptions& options = {});

// Whether the default table shows `row`: the case's primary metric, or a
// p50/p99 latency (a name with a `p50` or `p99` word not followed by a
// number: `wakeup_latency_p99_us`, not `wakeup_latency_p99_9_us`). Counts and
// derived metrics (bogo_ops, duration_s, children_*, requests, ...) only
// with --all-metrics.
bool shown_by_default(const compare::Row& row);

// The table's column headers ("CASE", ["VARIANT",] "METRIC", ...) and one
// row's lines as print_compare_table prints them (the baseline's, then per
// column its own and its "by boot" line): cells not escaped. For other
// renderers of the same table (the HTML report).
std::vector<std::string> compare_headers(const compare::Table& table);
std::vector<std::vector<std::string>> row_lines(const compare::Table& table,
                                                const compare::Row& row);

// The legend: marks, method, confidence and threshold, e.g.
// "(I) improvement, (R) regression: significant at 95% confidence ...".
std::string legend(analysis::Method method, double confidence, double threshold_pct);

// A percentage interval "[-0.78, +5.24]"; "-" when either end is NaN.
std::string format_interval(double lo_pct, double hi_pct);

// CoV as "0.8%"; "-" when NaN.
std::string format_cov(double cov_pct);

// A p-value to three decimals: "0.007", "<0.001"; "-" when NaN (JSON and
// CSV carry it whole).
std::string format_p(double p);

}  // namespace schedrig::report
