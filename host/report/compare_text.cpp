#include "host/report/compare_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "common/printable.h"
#include "host/report/format.h"
#include "host/report/text_table.h"

namespace schedrig::report {

using compare::Cell;
using compare::Row;
using compare::short_id;
using compare::Side;
using compare::Table;

namespace {

using analysis::Method;
using analysis::Verdict;
using Align = TextTable::Align;

// " bimodal" / " drift" for a series that is one.
std::string series_flag(const Side& side) {
  if (side.analysis.modes.bimodal) return " bimodal";
  if (side.analysis.drift.present) return " drift";
  return "";
}

std::string baseline_cell(const Row& row) {
  if (row.baseline.values.empty()) return "-";
  std::string value = format_number(row.baseline.analysis.summary.median);
  if (!row.unit.empty()) value = fmt::format("{} {}", value, row.unit);
  return value + series_flag(row.baseline);
}

std::string change_cell(const Cell& cell, Method method) {
  if (!cell.present) return "-";
  const analysis::Comparison& c = cell.comparison;
  std::string text = analysis::format_change(c.change_pct);
  const std::string_view mark = analysis::mark(c.verdict);
  if (!mark.empty()) text = fmt::format("{} {}", text, mark);
  if (method == Method::kAuto && c.parametric && c.verdict != Verdict::kInsufficient) text += "*";
  return text + series_flag(cell.side);
}

std::string n_cell(const Side& side) { return std::to_string(side.values.size()); }

std::string header_line(const Table& t) {
  auto who = [](const std::string& id, const std::string& agent, const std::string& kernel) {
    std::string where = agent;
    if (!kernel.empty()) where = where.empty() ? kernel : fmt::format("{}, {}", where, kernel);
    return where.empty() ? fmt::format("run {}", short_id(id))
                         : fmt::format("run {} ({})", short_id(id), where);
  };
  if (t.against_run_id.empty()) {
    std::string line = who(t.run_id, t.run_agent, t.run_kernel);
    if (!t.plan_name.empty()) line += fmt::format(", plan '{}'", t.plan_name);
    return fmt::format("{}: each variant against '{}'", line, t.baseline_label);
  }
  return fmt::format("{} against {}", who(t.run_id, t.run_agent, t.run_kernel),
                     who(t.against_run_id, t.against_agent, t.against_kernel));
}

// "a b c" vs "a c d": " -b +d" style, for long space-separated values.
std::string token_difference(const std::string& from, const std::string& to) {
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      std::size_t j = i;
      while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j > i) out.push_back(s.substr(i, j - i));
      i = j;
    }
    return out;
  };
  const auto a = split(from), b = split(to);
  auto contains = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  std::string out;
  for (const auto& tok : a) {
    if (!contains(b, tok)) out += fmt::format(" -{}", tok);
  }
  for (const auto& tok : b) {
    if (!contains(a, tok)) out += fmt::format(" +{}", tok);
  }
  return out.empty() ? " (same words, other order)" : out;
}

void print_fingerprint(const Table& t, std::ostream& out) {
  if (t.fingerprint_differences.empty()) {
    out << "fingerprint: no field differs\n";
    return;
  }
  out << fmt::format("fingerprint fields that differ ({} -> {}):\n", short_id(t.against_run_id),
                     short_id(t.run_id));
  for (const auto& d : t.fingerprint_differences) {
    const bool long_words =
        d.reference.find(' ') != std::string::npos || d.run.find(' ') != std::string::npos;
    if (long_words && !d.reference.empty() && !d.run.empty()) {
      out << printable(fmt::format("  {}:{}", d.field, token_difference(d.reference, d.run)))
          << '\n';
    } else {
      out << printable(fmt::format("  {}: {} -> {}", d.field,
                                   d.reference.empty() ? "-" : d.reference,
                                   d.run.empty() ? "-" : d.run))
          << '\n';
    }
  }
}

// Remarks of a cell for the notes, without those the table already shows:
// "parametric:" (the "*" and the legend), a side's bimodality or drift (its
// own line in words) and noise (the CoV column). JSON and CSV keep them all.
std::string cell_remarks(const analysis::Comparison& c) {
  static const char* const kShown[] = {"parametric:",    "baseline bimodal", "variant bimodal",
                                       "baseline drift", "variant drift",    "baseline noisy",
                                       "variant noisy"};
  auto shown = [](const std::string& part) {
    for (const char* prefix : kShown) {
      if (part.rfind(prefix, 0) == 0) return true;
    }
    return false;
  };
  std::string out;
  std::size_t start = 0;
  while (start <= c.note.size()) {
    std::size_t end = c.note.find("; ", start);
    if (end == std::string::npos) end = c.note.size();
    const std::string part = c.note.substr(start, end - start);
    if (!part.empty() && !shown(part)) {
      if (!out.empty()) out += "; ";
      out += part;
    }
    start = end + 2;
  }
  return out;
}

// CASE, VARIANT (across runs only), METRIC, then the baseline's and each
// column's value, CI, n and CoV.
std::vector<TextTable::Column> table_columns(const Table& t, bool across) {
  std::vector<TextTable::Column> columns = {{"CASE"}};
  if (across) columns.push_back({"VARIANT"});
  columns.push_back({"METRIC"});
  columns.push_back({fmt::format("{} (base)", t.baseline_label), Align::kRight});
  columns.push_back({"n", Align::kRight});
  columns.push_back({"CoV", Align::kRight});
  for (const auto& name : t.columns) {
    columns.push_back({name});
    columns.push_back({"95% CI (%)"});
    columns.push_back({"n", Align::kRight});
    columns.push_back({"CoV", Align::kRight});
  }
  return columns;
}

// One row's cells, in table_columns' order.
std::vector<std::string> row_cells(const Row& row, Method method, bool across) {
  std::vector<std::string> cells = {row.case_name};
  if (across) cells.push_back(row.variant);
  cells.push_back(row.metric);
  cells.push_back(baseline_cell(row));
  cells.push_back(n_cell(row.baseline));
  cells.push_back(format_cov(row.baseline.analysis.summary.cov_pct));
  for (const auto& cell : row.cells) {
    cells.push_back(change_cell(cell, method));
    cells.push_back(
        cell.present ? format_interval(cell.comparison.ci_lo_pct, cell.comparison.ci_hi_pct) : "-");
    cells.push_back(n_cell(cell.side));
    cells.push_back(format_cov(cell.side.analysis.summary.cov_pct));
  }
  return cells;
}

void print_rows(const Table& t, std::ostream& out) {
  const bool across = !t.against_run_id.empty();
  TextTable table(table_columns(t, across));
  for (const auto& row : t.rows) table.add_row(row_cells(row, t.method, across));
  table.print(out);
}

// A row's notes: a bimodal or drifting side in words, and each cell's
// remarks the table does not show (cell_remarks).
void add_row_notes(const Table& t, const Row& row, bool across, std::vector<std::string>& notes) {
  const std::string where =
      across ? fmt::format("{} / {} / {}", row.case_name, row.variant, row.metric)
             : fmt::format("{} / {}", row.case_name, row.metric);
  const auto words = [](const Side& side) { return analysis::describe(side.analysis); };
  if (row.baseline.analysis.modes.bimodal || row.baseline.analysis.drift.present) {
    notes.push_back(fmt::format("{} / {}: {}", where,
                                across ? short_id(row.baseline.run_id) : row.baseline.variant,
                                words(row.baseline)));
  }
  for (std::size_t i = 0; i < row.cells.size(); ++i) {
    const Cell& cell = row.cells[i];
    const std::string who = t.columns[i];
    if (cell.side.analysis.modes.bimodal || cell.side.analysis.drift.present) {
      notes.push_back(fmt::format("{} / {}: {}", where, who, words(cell.side)));
    }
    const std::string remarks = cell_remarks(cell.comparison);
    if (!remarks.empty()) notes.push_back(fmt::format("{} / {}: {}", where, who, remarks));
  }
}

// Every row's notes, then the unmatched lines.
std::vector<std::string> collect_notes(const Table& t) {
  const bool across = !t.against_run_id.empty();
  std::vector<std::string> notes;
  for (const auto& row : t.rows) add_row_notes(t, row, across, notes);
  for (const auto& u : t.unmatched) notes.push_back(u);
  return notes;
}

void print_notes(const std::vector<std::string>& notes, std::ostream& out) {
  if (notes.empty()) return;
  out << "notes:\n";
  for (const auto& n : notes) out << "  " << printable(n) << '\n';
}

}  // namespace

std::string format_interval(double lo_pct, double hi_pct) {
  if (!std::isfinite(lo_pct) || !std::isfinite(hi_pct)) return "-";
  return fmt::format("[{:+.2f}, {:+.2f}]", lo_pct, hi_pct);
}

std::string format_cov(double cov_pct) {
  return std::isfinite(cov_pct) ? fmt::format("{:.1f}%", cov_pct) : "-";
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
          "method auto: Mann-Whitney U test with the Hodges-Lehmann {:g}% CI when both sides have "
          ">= 5 iterations; * = Welch's t-test on log values (parametric, from 2-4 iterations).",
          level);
      break;
    case Method::kMannWhitney:
      text += fmt::format(
          "method mwu: Mann-Whitney U test (exact without ties below 50 per side, else normal "
          "approximation with tie correction) with the Hodges-Lehmann {:g}% CI.",
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
      "baseline (of the raw shift when a value is <= 0); n = ok iterations; CoV = SD / mean.\n",
      threshold_pct);
  return text;
}

void print_compare_table(const Table& t, std::ostream& out) {
  out << printable(header_line(t)) << '\n';
  if (!t.against_run_id.empty()) print_fingerprint(t, out);
  out << '\n';
  print_rows(t, out);
  out << '\n' << legend(t.method, t.confidence, t.threshold_pct);
  print_notes(collect_notes(t), out);
}

}  // namespace schedrig::report
