// Comparison rows built from stored runs (docs/architecture.md
// "Statistics", "Identity"): within one run every variant against the baseline variant, or
// one run against another (the same case names and variants), per case and
// metric. The numbers come from host/analysis; this file only matches cases,
// variants and metrics, and reads each metric's direction.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "host/analysis/series.h"
#include "host/analysis/verdict.h"
#include "host/store/records.h"

namespace schedrig::compare {

// Bad input for a comparison (ErrorKind::kUsage, exit 2): an unknown
// baseline variant, runs without a common case. The message names the run
// and what is missing.
class CompareError : public Error {
 public:
  explicit CompareError(const std::string& message) : Error(ErrorKind::kUsage, message) {}
};

struct CompareOptions {
  std::string baseline_variant;  // "" = the plan's first variant
  analysis::Method method = analysis::Method::kAuto;
  double threshold_pct = 0;  // --threshold: changes below this are never marked
};

// The values of one (run, case, variant, metric): ok iterations with a
// finite value, in iteration order.
struct Side {
  std::string run_id;
  std::string variant;
  std::vector<double> values;
  std::vector<unsigned> iterations;  // iteration numbers, parallel to values
  analysis::SeriesAnalysis analysis;
};

// One variant's column in a row.
struct Cell {
  bool present = false;  // false: the variant has no value for this metric
  Side side;
  analysis::Comparison comparison;
};

// One case and metric (and, across runs, one variant).
struct Row {
  std::string case_name;
  std::string variant;  // across runs: the variant compared; "" within a run
  std::string metric;
  std::string unit;
  bool higher_is_better = true;
  bool direction_assumed = false;  // the agent left the direction unset
  Side baseline;
  std::vector<Cell> cells;  // parallel to Table::columns
};

// A field of the system fingerprint that differs between two runs ("" where
// a run does not have it).
struct FingerprintDifference {
  std::string field;
  std::string reference;  // the --against run's value
  std::string run;        // RUN's value
};

struct Table {
  std::string run_id, run_agent, run_kernel, plan_name;
  std::string against_run_id, against_agent, against_kernel;  // empty within a run
  std::string baseline_label;        // the baseline variant, or the --against run's short id
  std::vector<std::string> columns;  // variant names, or RUN's short id across runs
  std::vector<Row> rows;
  std::vector<FingerprintDifference> fingerprint_differences;  // across runs only
  std::vector<std::string> unmatched;  // "case 'x' only in run 1a2b3c4d", ...
  analysis::Method method = analysis::Method::kAuto;
  double threshold_pct = 0;
  double confidence = 0.95;
};

// Every variant of `run` against its baseline variant, per case and metric,
// cases and variants in plan order (then any others in the order they were
// stored), metrics in the order the agent sent them. Throws CompareError
// when options.baseline_variant names no variant of the run.
Table compare_variants(const store::RunRecord& run, const CompareOptions& options = {});

// `run` against `reference` (the --against run): for each case name and
// variant both runs have, per metric. options.baseline_variant, when set,
// keeps only that variant. Throws CompareError when they share no case and
// variant.
Table compare_runs(const store::RunRecord& run, const store::RunRecord& reference,
                   const CompareOptions& options = {});

// Fields whose values differ, by name (a field one side lacks counts as "").
std::vector<FingerprintDifference> fingerprint_differences(
    const std::map<std::string, std::string>& reference,
    const std::map<std::string, std::string>& run);

// True when any cell's verdict is a regression (for --fail-on regression).
bool has_regression(const Table& table);

// The first 8 characters of a run id, as tables show it.
std::string short_id(const std::string& run_id);

}  // namespace schedrig::compare
