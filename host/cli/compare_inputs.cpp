#include "host/cli/compare_inputs.h"

#include <algorithm>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/printable.h"
#include "host/cli/gate_options.h"
#include "host/cli/read_store.h"
#include "host/cli/run_match.h"
#include "host/client/remote_runs.h"
#include "host/compare/pooled_latency.h"
#include "host/report/run_status_text.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

// The one run `id` names: an exact run_id, else the only run it prefixes.
store::RunRecord find_run(const std::vector<store::RunRecord>& runs, const std::string& id) {
  std::vector<std::string> ids;
  for (const auto& r : runs) ids.push_back(r.run_id);
  const std::string run_id = match_run_id(ids, id);
  return *std::find_if(runs.begin(), runs.end(),
                       [&](const store::RunRecord& r) { return r.run_id == run_id; });
}

// The runs `ids` name: from the server (GET /api/v1/runs/ID?histograms=1
// each), else from the store. Only the runs the ids can match are loaded: a
// store of many big runs stays fast.
std::vector<store::RunRecord> load_runs(const std::vector<std::string>& ids, const std::string& db,
                                        const ServerOptions& server, bool sample_summaries) {
  std::vector<store::RunRecord> out;
  if (use_server(server, db)) {
    const auto api = make_api_client(server);
    for (const auto& id : ids) out.push_back(client::fetch_run(*api, id, true));
    return out;
  }
  return read_store(db, [&](const store::Store& s) {
    const store::RunsOptions options{.sample_summaries = sample_summaries, .histograms = true};
    for (const auto& id : ids) out.push_back(find_run(s.runs(id, options), id));
    return out;
  });
}

// Every run named once: a run given twice (or on both sides) would count
// its iterations twice, narrowing the interval and inventing modes.
void check_distinct(const CompareInputs& in) {
  std::set<std::string> seen;
  for (const auto* side : {&in.runs, &in.against}) {
    for (const store::RunRecord& r : *side) {
      if (!seen.insert(r.run_id).second) {
        throw CliError(ErrorKind::kUsage,
                       fmt::format("run {} is named more than once (each run counts once)",
                                   printable(r.run_id)));
      }
    }
  }
}

}  // namespace

void add_comparison_options(CLI::App& cmd, ComparisonCliOptions& o) {
  cmd.add_option("run", o.runs,
                 "run_id or a unique prefix of it; several (with --against) are pooled");
  cmd.add_option("--baseline", o.baseline,
                 "variant to compare against (default: the plan's first); with --against, "
                 "compare only this variant");
  cmd.add_option("--against", o.against,
                 "a reference run (repeatable, or comma-separated: the reference runs are "
                 "pooled)")
      ->allow_extra_args(false)
      ->delimiter(',');
  cmd.add_flag("--force", o.force,
               "with --against: pair cases even when their definitions differ (the header "
               "says so)");
  cmd.add_option("--method", o.method,
                 "auto (with >= 5 iterations per side: Mann-Whitney U + Hodges-Lehmann and "
                 "Rosenbaum's exceedance test for a cliff, each at half the 5%; else Welch's t "
                 "on logs), mwu (the same whatever the count), welch or ci-overlap "
                 "(Fastpath/mmtests style)")
      ->check(CLI::IsMember({"auto", "mwu", "welch", "ci-overlap"}));
  add_disturbed_option(cmd, o.disturbed);
  cmd.add_option("--db", o.db, "SQLite file (default: the lab's schedrig.db)");
  add_server_options(cmd, o.server);
}

compare::CompareOptions compare_options(const ComparisonCliOptions& o, double threshold_pct) {
  compare::CompareOptions options;
  options.baseline_variant = o.baseline;
  options.method = *analysis::parse_method(o.method);          // CLI11 checked the word
  options.disturbed = *compare::parse_disturbed(o.disturbed);  // likewise
  options.threshold_pct = threshold_pct;
  options.force = o.force;
  return options;
}

CompareInputs load_compare_inputs(const ComparisonCliOptions& o, bool sample_summaries) {
  for (const auto& id : o.runs) {
    if (id.empty()) throw CliError(ErrorKind::kUsage, "RUN must not be empty");
  }
  CompareInputs in{load_runs(o.runs, o.db, o.server, sample_summaries),
                   load_runs(o.against, o.db, o.server, sample_summaries)};
  check_distinct(in);
  if (in.against.empty() && in.runs.size() > 1) {
    throw CliError(ErrorKind::kUsage, "several runs need --against (the reference runs)");
  }
  return in;
}

bool runs_ok(const std::vector<store::RunRecord>& runs) {
  bool ok = true;
  for (const auto& r : runs) {
    if (r.status == "ok") continue;
    std::cerr << printable(report::run_status_note(r)) << "\n";
    ok = false;
  }
  return ok;
}

compare::Table comparison_table(const CompareInputs& in, const compare::CompareOptions& options) {
  compare::Table table = in.against.empty() ? compare::compare_variants(in.runs.front(), options)
                                            : compare::compare_runs(in.runs, in.against, options);
  table.pooled = compare::pooled_latency(table, in.runs, in.against);
  return table;
}

}  // namespace schedrig::host
