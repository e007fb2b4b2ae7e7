#include "host/report/analyze_report.h"

#include "common/printable.h"

#include <cmath>

#include <fmt/format.h>

#include "host/analysis/cliff.h"
#include "host/report/cliff_json.h"
#include "host/report/compare_json.h"
#include "host/report/compare_text.h"
#include "host/report/format.h"
#include "host/report/text_table.h"

namespace schedrig::report {

using compare::AnalyzeReport;
using compare::kBaselineVariant;
namespace {

using Align = TextTable::Align;

std::string p_text(double p) {
  if (!std::isfinite(p)) return "-";
  if (p < 0.0001) return "<0.0001";
  return fmt::format("{:.4f}", p);
}

// True when some comparison has cliff words (the CLIFF column is shown then).
bool any_cliff_words(const AnalyzeReport& r) {
  for (const auto& c : r.comparisons) {
    if (!analysis::describe_cliff(c).empty()) return true;
  }
  return false;
}

}  // namespace

nlohmann::json analyze_json(const AnalyzeReport& r) {
  nlohmann::json variants = nlohmann::json::array();
  for (std::size_t i = 0; i < r.series.size(); ++i) {
    variants.push_back(series_json(r.series[i].name, r.analyses[i], r.series[i].iterations));
  }
  nlohmann::json comparisons = nlohmann::json::array();
  for (std::size_t i = 0; i < r.comparisons.size(); ++i) {
    nlohmann::json c = comparison_json(r.series[i + 1].name, r.comparisons[i]);
    c["cliff"] = cliff_json(r.comparisons[i]);
    c["spread"] = r.comparisons[i].spread;
    comparisons.push_back(std::move(c));
  }
  return {{"method", std::string(analysis::to_string(r.options.method))},
          {"lower_is_better", r.options.lower_is_better},
          {"variants", std::move(variants)},
          {"comparisons", std::move(comparisons)}};
}

void print_analyze_text(const AnalyzeReport& r, std::ostream& out) {
  TextTable series({{"VARIANT"},
                    {"n", Align::kRight},
                    {"MEDIAN", Align::kRight},
                    {"MEAN", Align::kRight},
                    {"MIN", Align::kRight},
                    {"MAX", Align::kRight},
                    {"CoV", Align::kRight},
                    {"SERIES"}});
  for (std::size_t i = 0; i < r.series.size(); ++i) {
    const analysis::Summary& s = r.analyses[i].summary;
    series.add_row({r.series[i].name, std::to_string(s.n), format_number(s.median),
                    format_number(s.mean), format_number(s.min), format_number(s.max),
                    format_cov(s.cov_pct), analysis::describe(r.analyses[i])});
  }
  series.print(out);
  if (r.comparisons.empty()) return;
  out << '\n';
  const bool cliffs = any_cliff_words(r);
  std::vector<TextTable::Column> columns = {{"VARIANT"},          {"CHANGE"}, {"95% CI (%)"},
                                            {"p", Align::kRight}, {"TEST"},   {"VERDICT"}};
  if (cliffs) columns.push_back({"CLIFF"});
  TextTable table(columns);
  for (std::size_t i = 0; i < r.comparisons.size(); ++i) {
    const analysis::Comparison& c = r.comparisons[i];
    std::string change = analysis::format_change(c.change_pct);
    const std::string_view mark = analysis::mark(c.verdict);
    if (!mark.empty()) change = fmt::format("{} {}", change, mark);
    if (r.options.method == analysis::Method::kAuto && c.parametric &&
        c.verdict != analysis::Verdict::kInsufficient) {
      change += "*";
    }
    std::vector<std::string> row = {r.series[i + 1].name,
                                    change,
                                    format_interval(c.ci_lo_pct, c.ci_hi_pct),
                                    p_text(c.p_value),
                                    std::string(analysis::to_string(c.test)),
                                    std::string(analysis::to_string(c.verdict))};
    if (cliffs) row.push_back(analysis::describe_cliff(c));
    table.add_row(std::move(row));
  }
  table.print(out);
  out << '\n'
      << fmt::format("Each variant against '{}'; {} is better.\n", kBaselineVariant,
                     r.options.lower_is_better ? "lower" : "higher")
      << legend(r.options.method, 0.95, r.options.threshold_pct);
  bool any = false;
  for (std::size_t i = 0; i < r.comparisons.size(); ++i) {
    if (r.comparisons[i].note.empty()) continue;
    if (!any) out << "notes:\n";
    any = true;
    // Names come from the file: escaped like the table's cells.
    out << printable(fmt::format("  {}: {}", r.series[i + 1].name, r.comparisons[i].note)) << '\n';
  }
}

}  // namespace schedrig::report
