// `--fail-on regression` (docs/architecture.md "Command lines"; the same
// meaning in compare, analyze, lab and run --wait): which rows a gate
// judges and which of them fail it. By default each case's primary metric
// (its first), or the metric its plan's `gate:` names; --metric NAME or
// --all-metrics widen it. A row fails when its verdict is (R) and
// |change| reaches the threshold (--threshold, else the plan's
// gate.threshold_pct, else none). A spread or a cliff counts as the
// verdict says (docs/statistics.md). Across runs with at least
// analysis::kMinBootsPerSide boots a side the boot-level verdict is the one
// judged (compare_table.h boot_level), so one odd boot cannot fail a gate.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "host/analysis/verdict.h"
#include "host/compare/compare_table.h"

namespace schedrig::compare {

struct GateOptions {
  std::vector<std::string> metrics;  // --metric NAME...; empty = the plan's gate or the primary
  bool all_metrics = false;          // --all-metrics: every metric
  double threshold_pct = 0;          // --threshold, %
  bool threshold_given = false;      // --threshold was given: it wins over the plan's gate
};

// One judged row that failed.
struct GateFailure {
  std::string where;  // "CASE/VARIANT" ("analyze": "FILE/VARIANT")
  std::string metric;
  double change_pct = 0;
  analysis::Verdict verdict = analysis::Verdict::kRegression;
  double threshold_pct = 0;
  std::string note;  // the comparison's note: why an insufficient row was not judged
};

// "gate: fork-all/autogroup-off bogo_ops_per_s -69.6% (R) [threshold 2%]"
// ("[no threshold]" at 0); an insufficient row: "gate: fork-all/autogroup-off
// bogo_ops_per_s not judged: fewer than 2 iterations (n=0 vs 0)". Not escaped: names come from the
// plan and agent.
std::string gate_line(const GateFailure& f);

// Whether `c` fails a gate of `threshold_pct`: a regression whose |change %|
// is at least the threshold, or a row that could not be judged (fewer than
// 2 iterations a side, e.g. every one disturbed): no evidence never passes.
bool fails_gate(const analysis::Comparison& c, double threshold_pct);
// Why `c` was not judged (its note's first remark), "" when it was.
std::string insufficient_note(const analysis::Comparison& c);

// The same for a verdict and its change (the boot-level one).
bool fails_gate(analysis::Verdict verdict, double change_pct, double threshold_pct);

// The rows of `table` the gate judges that fail it, in table order. Throws
// CompareError when a --metric names a metric no row has (the message lists
// the metrics there are), or when a case's plan gate names a metric that
// case's rows lack (a misspelt gate would pass every regression).
std::vector<GateFailure> gate_failures(const Table& table, const GateOptions& options);

// The pieces of gate_failures, for a caller that reports row by row
// (`schedrig nightly`): check_gate throws as gate_failures does;
// gate_judges says whether the gate judges `row` (--all-metrics, --metric,
// else the case's plan gate metric, else the primary one); cell_fails_gate
// whether one of its cells fails (the boot-level verdict when the cell has
// one, with the plan's threshold unless --threshold was given).
void check_gate(const Table& table, const GateOptions& options);
bool gate_judges(const Table& table, const Row& row, const GateOptions& options);
bool cell_fails_gate(const Table& table, const Row& row, const Cell& cell,
                     const GateOptions& options);

// What a gate says, the same in every command: when `runs_ok` is false
// "--fail-on regression: a compared run did not finish ok", else a
// gate_line per failure, each on `err` (escaped). True when the gate fails.
bool report_gate(const std::vector<GateFailure>& failures, bool runs_ok, std::ostream& err);

}  // namespace schedrig::compare
