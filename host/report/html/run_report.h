// `schedrig report RUN [--against RUN2] --html F`: one run (or runs
// against reference runs) as a self-contained HTML page (docs/reports.md):
// the runs and their labels, the verdict table and its notes as `compare`
// prints them, the pooled latency percentiles, per case and metric a strip
// plot of every iteration in run order (one colour per variant, disturbed
// ones crossed, modes dashed, the baseline's range shaded) with each
// variant's distribution beside it, the sampled time series with starved
// intervals shaded, and the fingerprint and topology differences.
#pragma once

#include <string>
#include <vector>

#include "host/compare/compare_table.h"
#include "host/store/records.h"

namespace schedrig::report::html {

struct RunReportData {
  compare::Table table;  // compare_variants / compare_runs of the runs below, pooled filled
  std::vector<store::RunRecord> runs;        // RUN (several: pooled)
  std::vector<store::RunRecord> against;     // reference runs; empty within a run
  std::vector<store::SampleRecord> samples;  // of every run above (SampleRecord::run_id)
  std::string command;                       // the command that made the report, shown at its foot
};

// The page. Every remote string is escaped; nothing is fetched when opened.
std::string run_report_html(const RunReportData& data);

// The sampled values the report plots, in order, with their units:
// idle_pct, runnable, ctxt_per_s, wait_share_pct, newidle_lb_per_s,
// run_delay_ms_per_s, psi_some_pct.
const std::vector<std::pair<std::string, std::string>>& plotted_sample_values();

}  // namespace schedrig::report::html
