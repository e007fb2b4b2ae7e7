// The runs a comparison reads and its table, shared by `compare` and
// `report`: RUN ids (exact or a unique prefix) resolved on the server or in
// the store, each run named once, and the table (within a run or against
// reference runs) with its pooled latency percentiles.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "host/cli/server_options.h"
#include "host/compare/compare_table.h"
#include "host/store/records.h"

namespace schedrig::host {

// What `compare` and `report` share on their command lines.
struct ComparisonCliOptions {
  std::vector<std::string> runs, against;
  std::string baseline, db;
  std::string method = "auto";
  std::string disturbed = "exclude";
  bool force = false;
  ServerOptions server;
};

// Adds RUN..., --baseline, --against, --force, --method, --disturbed, --db
// and the server options to `cmd`.
void add_comparison_options(CLI::App& cmd, ComparisonCliOptions& o);

// The comparison's options from the command line; `threshold_pct` from
// --threshold.
compare::CompareOptions compare_options(const ComparisonCliOptions& o, double threshold_pct);

struct CompareInputs {
  std::vector<store::RunRecord> runs, against;
};

// Loads o.runs and o.against (each run with its histograms; with
// `samples` also their sample summaries) from the server when `server`
// says so, else from o.db (or the default store). Throws CliError(kUsage)
// for an empty id, a run named twice, or several RUNs without --against;
// errors of the store or server as they come.
CompareInputs load_compare_inputs(const ComparisonCliOptions& o, bool sample_summaries = false);

// Says on stderr which of the runs did not end ok; true when every one did.
bool runs_ok(const std::vector<store::RunRecord>& runs);

// compare_variants (no reference runs) or compare_runs, then the pooled
// percentiles. Throws compare::CompareError as those do.
compare::Table comparison_table(const CompareInputs& in, const compare::CompareOptions& options);

}  // namespace schedrig::host
