#include "host/compare/gate.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/printable.h"
#include "host/compare/run_data.h"

namespace schedrig::compare {
namespace {

// The metric names of `table`'s rows, of case `case_name` only when it is
// given, each once in row order.
std::vector<std::string> metric_names(const Table& table, const std::string* case_name = nullptr) {
  std::vector<std::string> known;
  for (const auto& row : table.rows)
    if (!case_name || row.case_name == *case_name) push_unique(known, row.metric);
  return known;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool judged(const Row& row, const GateOptions& o, const CaseGate* plan) {
  if (o.all_metrics) return true;
  if (!o.metrics.empty()) return contains(o.metrics, row.metric);
  if (plan && !plan->metric.empty()) return row.metric == plan->metric;
  return row.primary;
}

void check_metric_names(const Table& table, const GateOptions& o) {
  const std::vector<std::string> known = metric_names(table);
  for (const auto& m : o.metrics) {
    if (!contains(known, m)) {
      throw CompareError(fmt::format("--metric {}: no such metric in the comparison (metrics: {})",
                                     m, fmt::join(known, ", ")));
    }
  }
}

// A plan gate whose metric no row of its case has: the gate would judge
// nothing there.
void check_plan_gates(const Table& table) {
  for (const auto& [case_name, gate] : table.gates) {
    if (gate.metric.empty()) continue;
    const std::vector<std::string> known = metric_names(table, &case_name);
    if (known.empty() || contains(known, gate.metric))
      continue;  // no rows (every iteration failed: the run's status says so), or found
    throw CompareError(
        fmt::format("case {}: the plan's gate.metric {} is not a metric of the case (metrics: {})",
                    case_name, gate.metric, fmt::join(known, ", ")));
  }
}

}  // namespace

std::string insufficient_note(const analysis::Comparison& c) {
  if (c.verdict != analysis::Verdict::kInsufficient) return "";
  const std::size_t end = c.note.find("; ");
  return c.note.substr(0, end);  // its first remark says why
}

std::string gate_line(const GateFailure& f) {
  if (f.verdict == analysis::Verdict::kInsufficient) {
    return fmt::format("gate: {} {} not judged: {}", f.where, f.metric,
                       f.note.empty() ? std::string("too few iterations") : f.note);
  }
  const std::string threshold = f.threshold_pct > 0
                                    ? fmt::format("threshold {:g}%", f.threshold_pct)
                                    : std::string("no threshold");
  return fmt::format("gate: {} {} {:+.1f}% {} [{}]", f.where, f.metric, f.change_pct,
                     analysis::mark(f.verdict), threshold);
}

bool fails_gate(analysis::Verdict verdict, double change_pct, double threshold_pct) {
  if (verdict == analysis::Verdict::kInsufficient) return true;
  if (verdict != analysis::Verdict::kRegression) return false;
  return !(std::fabs(change_pct) < threshold_pct);  // a NaN change fails on the verdict
}

bool fails_gate(const analysis::Comparison& c, double threshold_pct) {
  return fails_gate(c.verdict, c.change_pct, threshold_pct);
}

// The plan's gate of `row`'s case; nullptr when it has none.
static const CaseGate* plan_gate(const Table& table, const Row& row) {
  const auto g = table.gates.find(row.case_name);
  return g == table.gates.end() ? nullptr : &g->second;
}

static double threshold_of(const GateOptions& o, const CaseGate* plan) {
  return o.threshold_given || !plan ? o.threshold_pct : plan->threshold_pct;
}

void check_gate(const Table& table, const GateOptions& o) {
  check_metric_names(table, o);
  if (o.metrics.empty() && !o.all_metrics) check_plan_gates(table);
}

bool gate_judges(const Table& table, const Row& row, const GateOptions& o) {
  return judged(row, o, plan_gate(table, row));
}

bool cell_fails_gate(const Table& table, const Row& row, const Cell& cell, const GateOptions& o) {
  const double threshold = threshold_of(o, plan_gate(table, row));
  if (boot_level(cell))
    return fails_gate(cell.by_boot->verdict, cell.by_boot->change_pct, threshold);
  return fails_gate(cell.comparison, threshold);
}

std::vector<GateFailure> gate_failures(const Table& table, const GateOptions& o) {
  check_gate(table, o);
  std::vector<GateFailure> out;
  for (const auto& row : table.rows) {
    if (!gate_judges(table, row, o)) continue;
    const double threshold = threshold_of(o, plan_gate(table, row));
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const Cell& cell = row.cells[i];
      if (!cell_fails_gate(table, row, cell, o)) continue;
      const std::string& variant = row.variant.empty() ? table.columns[i] : row.variant;
      const std::string where = fmt::format("{}/{}", row.case_name, variant);
      if (boot_level(cell)) {
        const analysis::BootComparison& b = *cell.by_boot;
        out.push_back({where + " by boot", row.metric, b.change_pct, b.verdict, threshold, ""});
      } else {
        out.push_back({where, row.metric, cell.comparison.change_pct, cell.comparison.verdict,
                       threshold, insufficient_note(cell.comparison)});
      }
    }
  }
  return out;
}

bool report_gate(const std::vector<GateFailure>& failures, bool runs_ok, std::ostream& err) {
  if (!runs_ok) err << "--fail-on regression: a compared run did not finish ok\n";
  for (const auto& f : failures) err << printable(gate_line(f)) << "\n";
  return !runs_ok || !failures.empty();
}

}  // namespace schedrig::compare
