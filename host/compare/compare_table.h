// Comparison rows built from stored runs (docs/architecture.md
// "Statistics", "Identity"; docs/statistics.md "What is compared"): within
// one run every variant against the baseline variant, or runs against
// reference runs (the same case names and variants; several runs a side are
// pooled), per case and metric. The numbers come from host/analysis; this
// file only matches cases, variants and metrics, and reads each metric's
// direction.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "host/analysis/boots.h"
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

// --disturbed: what to do with iterations whose IterationRecord::disturbed
// is set (the quiet check gave up, or other work ran in the window).
enum class DisturbedPolicy { kExclude, kInclude, kOnly };
// "exclude", "include", "only"
std::string_view to_string(DisturbedPolicy p);
// Parses a --disturbed word; nullopt for anything else.
std::optional<DisturbedPolicy> parse_disturbed(std::string_view word);

struct CompareOptions {
  std::string baseline_variant;  // "" = the plan's first variant
  analysis::Method method = analysis::Method::kAuto;
  double threshold_pct = 0;  // --threshold: changes below this are never marked
  DisturbedPolicy disturbed = DisturbedPolicy::kExclude;
  bool force = false;  // --force: pair cases across runs even when their definitions differ
};

// The values of one (side, case, variant, metric): ok iterations with a
// finite value that the disturbed policy keeps, run by run (the order
// given), each run's in iteration order.
struct Side {
  std::string run_id;  // the side's first run
  std::string variant;
  std::vector<double> values;
  std::vector<unsigned> iterations;  // iteration numbers, parallel to values
  std::vector<std::string> boots;    // boot_id of each value's run ("" unknown), parallel
  analysis::SeriesAnalysis analysis;
};

// Distinct known boot ids among side.boots (an unknown boot_id counts none).
std::size_t boot_count(const Side& side);

// One variant's column in a row.
struct Cell {
  bool present = false;  // false: the variant has no value for this metric
  Side side;
  analysis::Comparison comparison;  // iteration level: every value of both sides
  // Across runs: the boot-level comparison (analysis::compare_boots over the
  // values grouped by boot_id; values of unknown boots left out);
  // kInsufficient below analysis::kMinBootsPerSide boots a side.
  std::optional<analysis::BootComparison> by_boot;
};

// True when `cell` has a boot-level verdict to stand on: by_boot with at
// least analysis::kMinBootsPerSide boots on each side. The gate then judges
// that verdict rather than the iteration-level one.
bool boot_level(const Cell& cell);

// The values of `side` grouped by boot, in order of first appearance;
// values of an unknown ("") boot are left out.
std::vector<std::vector<double>> values_by_boot(const Side& side);

// One case and metric (and, across runs, one variant).
struct Row {
  std::string case_name;
  std::string variant;  // across runs: the variant compared; "" within a run
  std::string metric;
  std::string unit;
  bool higher_is_better = true;
  bool direction_assumed = false;  // the agent left the direction unset
  bool primary = false;            // the case's first metric (the workload's primary one)
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

// A run the comparison read, for the header: its status, and what the
// disturbed policy did with its ok iterations.
struct ComparedRun {
  std::string run_id;
  bool reference = false;  // an --against run
  std::string status, reason, boot_id;
  unsigned planned_iterations = 0, ok_iterations = 0;
  bool started = true;     // a RunStarted or a result was stored
  unsigned disturbed = 0;  // ok iterations marked disturbed
  unsigned left_out = 0;   // ok iterations the policy left out
  // Knob settings the box applied at boot (its fingerprint's
  // persisted_knobs, agent/knobs/persisted_knobs.h); "" when none.
  std::string persisted_knobs;
};

// What `--fail-on regression` judges for a case when the command line does
// not say (the plan's `gate:`; docs/architecture.md "Plan files").
struct CaseGate {
  std::string metric;  // "" = the primary metric
  double threshold_pct = 0;
};

// Pooled latency percentiles (host/compare/pooled_latency.h fills them).
// The quantiles reported, in order: p50, p90, p99, p99.9.
inline constexpr std::array<double, 4> kPooledQuantiles = {0.5, 0.9, 0.99, 0.999};

// One side of a pooled row: a variant of a run (within a run), or a side's
// runs (across runs).
struct PooledSide {
  std::string label;                 // the column: the variant, or the side's short run id
  std::string run_id;                // the side's first run
  std::vector<std::string> run_ids;  // every run of the side
  std::string variant;
  unsigned iterations = 0;            // histograms merged (one per kept iteration)
  unsigned long long samples = 0;     // latencies in the merge
  std::array<double, 4> quantiles{};  // kPooledQuantiles, in `unit`; NaN when empty
};

// One (case, variant across runs, histogram): its sides, the baseline first.
struct PooledLatency {
  std::string case_name, variant;  // variant: across runs the one compared; "" within a run
  std::string histogram, unit;     // e.g. "wakeup_latency", "us"
  std::vector<PooledSide> sides;
};

struct Table {
  std::string run_id, run_agent, run_kernel, plan_name;
  std::string against_run_id, against_agent, against_kernel;  // empty within a run
  std::string baseline_label;        // the baseline variant, or the --against run's short id
  std::vector<std::string> columns;  // variant names, or RUN's short id across runs
  std::vector<Row> rows;
  std::vector<FingerprintDifference> fingerprint_differences;  // across runs only
  // Across runs: "pus" and "cpus[CASE]" where the runs differ (reference's first
  // run -> the other run's value; one entry per run that differs).
  std::vector<FingerprintDifference> topology_differences;
  // With --force: each pairing of cases that would have been refused, in words.
  std::vector<std::string> forced;
  std::vector<std::string> unmatched;     // "case 'x' only in run 1a2b3c4d", ...
  std::vector<ComparedRun> runs;          // the runs read: RUN(s), then the --against runs
  std::map<std::string, CaseGate> gates;  // per case name, from the plan of RUN (or reference)
  analysis::Method method = analysis::Method::kAuto;
  DisturbedPolicy disturbed = DisturbedPolicy::kExclude;
  double threshold_pct = 0;
  double confidence = 0.95;
  std::size_t reference_boots = 0, run_boots = 0;  // across runs: distinct known boot ids a side
  // Pooled latency percentiles (compare::pooled_latency), when the runs were
  // loaded with their histograms; empty otherwise.
  std::vector<PooledLatency> pooled;
};

// Every variant of `run` against its baseline variant, per case and metric,
// cases and variants in plan order (then any others in the order they were
// stored), metrics in the order the agent sent them. Throws CompareError
// when options.baseline_variant names no variant of the run.
Table compare_variants(const store::RunRecord& run, const CompareOptions& options = {});

// `runs` against `references` (the --against runs), each side's iterations
// pooled: for each case name and variant both sides have, per metric.
// options.baseline_variant, when set, keeps only that variant. Throws
// CompareError when they share no case and variant, and (unless
// options.force) when a shared case's definition differs between any run
// and the first reference (comparable.h: workload, params, placement,
// cpulist of its iterations, PU count), naming the case and what differs.
Table compare_runs(const std::vector<store::RunRecord>& runs,
                   const std::vector<store::RunRecord>& references,
                   const CompareOptions& options = {});
// One run a side.
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
