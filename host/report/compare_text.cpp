#include "host/report/compare_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "common/printable.h"
#include "host/report/compare_header.h"
#include "host/report/compare_notes.h"
#include "host/report/format.h"
#include "host/report/pooled_report.h"
#include "host/report/text_table.h"

namespace schedrig::report {

using compare::Cell;
using compare::Row;
using compare::Side;
using compare::Table;

namespace {

using analysis::Method;
using analysis::Verdict;
using Align = TextTable::Align;

// The console's width: legend and notes are wrapped to it, and the table
// with three variants and realistic names fits (tests/host/compare).
constexpr std::size_t kWidth = 120;

// " bimodal" / " drift" for a series that is one.
std::string series_flag(const Side& side) {
  if (side.analysis.modes.bimodal) return " bimodal";
  if (side.analysis.drift.present) return " drift";
  return "";
}

std::string median_cell(const Side& side, const std::string& unit) {
  if (side.values.empty()) return "-";
  std::string value = format_number(side.analysis.summary.median);
  if (!unit.empty()) value = fmt::format("{} {}", value, unit);
  return value + series_flag(side);
}

std::string change_cell(const Cell& cell, Method method) {
  if (!cell.present) return "-";
  const analysis::Comparison& c = cell.comparison;
  std::string text = analysis::format_change(c.change_pct);
  const std::string_view mark = analysis::mark(c.verdict);
  if (!mark.empty()) text = fmt::format("{} {}", text, mark);
  if (method == Method::kAuto && c.parametric && c.verdict != Verdict::kInsufficient) text += "*";
  return text;
}

bool is_number(const std::string& word) {
  return !word.empty() &&
         std::all_of(word.begin(), word.end(), [](char ch) { return std::isdigit(ch) != 0; });
}

// CASE, [VARIANT,] METRIC, then the side (VARIANT within a run, RUN across
// runs) with its median, n and CoV, and the change, CI and p-value.
std::vector<TextTable::Column> table_columns(bool across) {
  std::vector<TextTable::Column> columns = {{"CASE"}};
  if (across) columns.push_back({"VARIANT"});
  columns.push_back({"METRIC"});
  columns.push_back({across ? "RUN" : "VARIANT"});
  columns.push_back({"MEDIAN", Align::kRight});
  columns.push_back({"n", Align::kRight});
  columns.push_back({"CoV", Align::kRight});
  columns.push_back({"CHANGE"});
  columns.push_back({"95% CI (%)"});
  columns.push_back({"p", Align::kRight});
  return columns;
}

// "by boot (2 vs 2)" with the boot-level change, mark, CI and p-value.
std::vector<std::string> boot_line(const analysis::BootComparison& b, bool across) {
  std::vector<std::string> line(across ? 3 : 2);
  line.push_back(fmt::format("by boot ({} vs {})", b.baseline_boots, b.variant_boots));
  line.resize(line.size() + 3);  // median, n, CoV
  std::string change = analysis::format_change(b.change_pct);
  const std::string_view mark = analysis::mark(b.verdict);
  if (!mark.empty()) change = fmt::format("{} {}", change, mark);
  line.push_back(change);
  line.push_back(format_interval(b.ci_lo_pct, b.ci_hi_pct));
  line.push_back(format_p(b.p_value));
  return line;
}

}  // namespace

std::vector<std::vector<std::string>> row_lines(const Table& t, const Row& row) {
  const bool across = !t.against_run_id.empty();
  std::vector<std::vector<std::string>> out;
  std::vector<std::string> first = {row.case_name};
  if (across) first.push_back(row.variant);
  first.push_back(row.metric);
  first.push_back(t.baseline_label);
  first.push_back(median_cell(row.baseline, row.unit));
  first.push_back(std::to_string(row.baseline.values.size()));
  first.push_back(format_cov(row.baseline.analysis.summary.cov_pct));
  out.push_back(std::move(first));
  for (std::size_t i = 0; i < row.cells.size(); ++i) {
    const Cell& cell = row.cells[i];
    std::vector<std::string> line(across ? 3 : 2);
    line.push_back(t.columns[i]);
    line.push_back(median_cell(cell.side, row.unit));
    line.push_back(std::to_string(cell.side.values.size()));
    line.push_back(format_cov(cell.side.analysis.summary.cov_pct));
    line.push_back(change_cell(cell, t.method));
    line.push_back(
        cell.present ? format_interval(cell.comparison.ci_lo_pct, cell.comparison.ci_hi_pct) : "-");
    line.push_back(cell.present ? format_p(cell.comparison.p_value) : "-");
    out.push_back(std::move(line));
    if (compare::boot_level(cell)) out.push_back(boot_line(*cell.by_boot, across));
  }
  return out;
}

std::vector<std::string> compare_headers(const Table& t) {
  std::vector<std::string> out;
  for (const auto& c : table_columns(!t.against_run_id.empty())) out.push_back(c.header);
  return out;
}

namespace {

void print_notes(const std::vector<std::string>& notes, std::ostream& out) {
  if (notes.empty()) return;
  out << "notes:\n";
  for (const auto& n : notes) out << "  " << wrap_words(printable(n), kWidth - 2, "    ") << '\n';
}

}  // namespace

bool shown_by_default(const Row& row) {
  if (row.primary) return true;
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start <= row.metric.size()) {
    std::size_t end = row.metric.find('_', start);
    if (end == std::string::npos) end = row.metric.size();
    words.push_back(row.metric.substr(start, end - start));
    start = end + 1;
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    const bool next_is_number = i + 1 < words.size() && is_number(words[i + 1]);
    if ((words[i] == "p50" || words[i] == "p99") && !next_is_number) return true;
  }
  return false;
}

std::string format_interval(double lo_pct, double hi_pct) {
  if (!std::isfinite(lo_pct) || !std::isfinite(hi_pct)) return "-";
  return fmt::format("[{:+.2f}, {:+.2f}]", lo_pct, hi_pct);
}

std::string format_cov(double cov_pct) {
  return std::isfinite(cov_pct) ? fmt::format("{:.1f}%", cov_pct) : "-";
}

std::string format_p(double p) {
  if (!std::isfinite(p)) return "-";
  return p < 0.001 ? std::string("<0.001") : fmt::format("{:.3f}", p);
}

std::string legend(Method method, double confidence, double threshold_pct) {
  const double level = 100 * confidence;
  std::string text = fmt::format(
      "(I) improvement, (R) regression: significant at {:g}% confidence (two-sided); unmarked: no "
      "significant change; ? fewer than 2 iterations.\n",
      level);
  switch (method) {
    case Method::kAuto:
      text += fmt::format(
          "method auto: with >= 5 iterations a side, the Mann-Whitney U test (Hodges-Lehmann {:g}% "
          "CI) and Rosenbaum's exceedance test for a cliff (iterations beyond the baseline's "
          "range), each at half the 5%; p is Mann-Whitney's; * = Welch's t-test on log values "
          "(parametric, from 2-4 iterations).",
          level);
      break;
    case Method::kMannWhitney:
      text += fmt::format(
          "method mwu: Mann-Whitney U test (exact without ties below 50 per side, else normal "
          "approximation with tie correction) with the Hodges-Lehmann {:g}% CI, and Rosenbaum's "
          "exceedance test for a cliff, each at half the 5%.",
          level);
      break;
    case Method::kWelch:
      text += fmt::format(
          "method welch: Welch's t-test on log values, {:g}% CI of the ratio of geometric means "
          "(parametric).",
          level);
      break;
    case Method::kCiOverlap:
      text +=
          "method ci-overlap (Fastpath/mmtests style): marked when the intervals mean +- 1.96 SD "
          "of the two sides do not overlap; the CI column is the range of changes they allow.";
      break;
  }
  text += fmt::format(
      " Threshold {:g}%. Change: % of the baseline median; CI: % change of the ratio variant / "
      "baseline (of the raw shift when a value is <= 0); p: two-sided; n = ok iterations; CoV = "
      "SD / mean.\n",
      threshold_pct);
  return text;
}

void print_compare_table(const Table& t, std::ostream& out, const TableOptions& options) {
  print_compare_header(t, out);
  out << '\n';
  const bool across = !t.against_run_id.empty();
  const auto shown = [&](const Row& row) { return options.all_metrics || shown_by_default(row); };
  TextTable table(table_columns(across));
  std::size_t hidden = 0;
  for (const auto& row : t.rows) {
    if (shown(row)) {
      for (auto& line : row_lines(t, row)) table.add_row(std::move(line));
    } else {
      ++hidden;
    }
  }
  table.print(out);
  if (hidden > 0) {
    out << fmt::format("({} more metric rows: --all-metrics shows them; JSON and CSV have all)\n",
                       hidden);
  }
  std::string text = legend(t.method, t.confidence, t.threshold_pct);
  text.pop_back();  // its last '\n'
  out << '\n' << wrap_words(text, kWidth, "") << '\n';
  print_notes(compare_notes(t, shown), out);
  print_pooled_text(t.pooled, out);
}

}  // namespace schedrig::report
