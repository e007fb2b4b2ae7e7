// `schedrig trend` (docs/reports.md "Trend"): one case's metric of one
// variant over an agent's runs in time order — or pooled per kernel — with
// each point's median and 95% interval, its verdict against the point
// before, and the change points across runs.
//
// A change point is a move between two steady levels: point i is one when
// its comparison with point i-1 is significant ((I) or (R)), point i+1
// agrees with i (no significant change between them) and differs from i-1
// the same way, and i-1 agrees with i-2 when there is one. One odd run is
// therefore no change point, nor is the return after it, and the newest
// point is marked but not a change point until the next run confirms it.
#pragma once

#include <string>
#include <vector>

#include "host/analysis/verdict.h"
#include "host/compare/compare_table.h"
#include "host/store/records.h"

namespace schedrig::compare {

struct TrendOptions {
  std::string case_name;
  std::string metric;   // "" = the case's primary (first) metric
  std::string variant;  // "" = each run's plan's first variant
  // One point per kernel, runs pooled, in the order first seen: the run's
  // `kernel` label when it has one (nightly's name for it), else its release.
  bool by_kernel = false;
  DisturbedPolicy disturbed = DisturbedPolicy::kExclude;
  analysis::Method method = analysis::Method::kAuto;
  double threshold_pct = 0;
};

struct TrendPoint {
  std::string label;                        // the run's short id, or the kernel release
  std::vector<std::string> run_ids;         // behind the point
  std::string kernel;                       // the (first) run's kernel release
  long long started_at_ns = 0;              // the (first) run's start
  std::vector<double> values;               // kept iterations' values, run by run
  unsigned left_out = 0;                    // ok iterations the disturbed policy left out
  double median = 0, ci_lo = 0, ci_hi = 0;  // NaN without values
  double ci_coverage = 0;            // the interval's coverage (< 0.95 below 6 values: the range)
  bool has_previous = false;         // a point before with values
  analysis::Comparison vs_previous;  // against the point before (meaningful with has_previous)
  bool change_point = false;
};

struct Trend {
  std::string case_name, metric, unit;
  bool higher_is_better = true;
  std::vector<TrendPoint> points;  // time order
};

// The kernel a run counts under with by_kernel: its `kernel` label, else
// its kernel release.
std::string kernel_of(const store::RunRecord& run);

// The trend of `runs` (oldest first; runs without the case are left out).
// Throws CompareError when no run has the case, the metric is unknown to it
// (naming the metrics it has), or no run has the variant asked for (naming
// the variants there are).
Trend make_trend(const std::vector<store::RunRecord>& runs, const TrendOptions& options);

}  // namespace schedrig::compare
