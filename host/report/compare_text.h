// The comparison for people: Fastpath's layout (one row per case and metric,
// the baseline value with its unit, then each variant's change % with its
// mark, plus n and CoV), a legend under it, and notes in words.
#pragma once

#include <ostream>
#include <string>

#include "host/analysis/verdict.h"
#include "host/compare/compare_table.h"

namespace schedrig::report {

// Writes a header line naming the run(s) (and, across runs, which
// fingerprint fields differ), the table, the legend, and notes for bimodal
// or drifting series and other remarks. Variant cells read "+1.82% (I)",
// "-0.22%", "+3.1% ?" (insufficient) or "-" (no values); "*" after the mark
// flags a parametric result from few iterations (auto method), and
// "bimodal"/"drift" follow when that series is one.
void print_compare_table(const compare::Table& table, std::ostream& out);

// The legend: marks, method, confidence and threshold, e.g.
// "(I) improvement, (R) regression: significant at 95% confidence ...".
std::string legend(analysis::Method method, double confidence, double threshold_pct);

// A percentage interval "[-0.78, +5.24]"; "-" when either end is NaN.
std::string format_interval(double lo_pct, double hi_pct);

// CoV as "0.8%"; "-" when NaN.
std::string format_cov(double cov_pct);

}  // namespace schedrig::report
