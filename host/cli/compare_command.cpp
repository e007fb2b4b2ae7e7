// `schedrig compare RUN...`: every variant of a run against its baseline, or
// runs against other runs (--against, repeatable; each side's runs pooled),
// with verdicts (docs/architecture.md "Statistics"; docs/statistics.md).
#include <algorithm>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/printable.h"
#include "host/cli/commands.h"
#include "host/cli/gate_options.h"
#include "host/cli/read_store.h"
#include "host/cli/run_match.h"
#include "host/cli/server_options.h"
#include "host/client/remote_runs.h"
#include "host/compare/compare_table.h"
#include "host/compare/gate.h"
#include "host/report/compare_json.h"
#include "host/report/compare_text.h"
#include "host/report/run_status_text.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

struct CompareCliOptions {
  std::vector<std::string> runs, against;
  std::string baseline, db;
  std::string method = "auto";
  std::string disturbed = "exclude";
  bool force = false;
  GateCliOptions gate;
  bool json = false, csv = false;
  ServerOptions server;
};

// The one run `id` names: an exact run_id, else the only run it prefixes.
store::RunRecord find_run(const std::vector<store::RunRecord>& runs, const std::string& id) {
  std::vector<std::string> ids;
  for (const auto& r : runs) ids.push_back(r.run_id);
  const std::string run_id = match_run_id(ids, id);
  return *std::find_if(runs.begin(), runs.end(),
                       [&](const store::RunRecord& r) { return r.run_id == run_id; });
}

// The runs `ids` name: from the server (GET /api/v1/runs/ID each), else from
// the store. Only the runs the ids can match are loaded: a store of many big
// runs stays fast.
std::vector<store::RunRecord> load_runs(const CompareCliOptions& o,
                                        const std::vector<std::string>& ids) {
  std::vector<store::RunRecord> out;
  if (use_server(o.server, o.db)) {
    const auto api = make_api_client(o.server);
    for (const auto& id : ids) out.push_back(client::fetch_run(*api, id));
    return out;
  }
  return read_store(o.db, [&](const store::Store& s) {
    // Without sample summaries: compare never shows them, and they cost.
    const store::RunsOptions lean{.sample_summaries = false};
    for (const auto& id : ids) out.push_back(find_run(s.runs(id, lean), id));
    return out;
  });
}

// Says on stderr which of the compared runs did not end ok (its status,
// reason and results); true when every one did.
bool runs_ok(const std::vector<store::RunRecord>& runs) {
  bool ok = true;
  for (const auto& r : runs) {
    if (r.status == "ok") continue;
    std::cerr << printable(report::run_status_note(r)) << "\n";
    ok = false;
  }
  return ok;
}

compare::CompareOptions compare_options(const CompareCliOptions& o) {
  compare::CompareOptions options;
  options.baseline_variant = o.baseline;
  options.method = *analysis::parse_method(o.method);          // CLI11 checked the word
  options.disturbed = *compare::parse_disturbed(o.disturbed);  // likewise
  options.threshold_pct = o.gate.threshold_pct;
  options.force = o.force;
  return options;
}

void print(const CompareCliOptions& o, const compare::Table& table) {
  if (o.json) {
    std::cout << report::compare_json(table).dump(2) << "\n";
  } else if (o.csv) {
    report::print_compare_csv(table, std::cout);
  } else {
    report::print_compare_table(table, std::cout, {o.gate.all_metrics});
  }
  std::cout << std::flush;
}

// Every run named once: a run given twice (or on both sides) would count
// its iterations twice, narrowing the interval and inventing modes.
void check_distinct(const std::vector<store::RunRecord>& runs,
                    const std::vector<store::RunRecord>& against) {
  std::set<std::string> seen;
  for (const auto* side : {&runs, &against}) {
    for (const store::RunRecord& r : *side) {
      if (!seen.insert(r.run_id).second) {
        throw CliError(ErrorKind::kUsage,
                       fmt::format("compare: run {} is named more than once (each run counts once)",
                                   printable(r.run_id)));
      }
    }
  }
}

int run_compare(const CompareCliOptions& o) {
  for (const auto& id : o.runs) {
    if (id.empty()) throw CliError(ErrorKind::kUsage, "compare: RUN must not be empty");
  }
  const std::vector<store::RunRecord> runs = load_runs(o, o.runs);
  const std::vector<store::RunRecord> against = load_runs(o, o.against);
  const bool ok = runs_ok(runs) && runs_ok(against);
  check_distinct(runs, against);
  if (against.empty() && runs.size() > 1) {
    throw CliError(ErrorKind::kUsage, "compare: several runs need --against (the reference runs)");
  }
  compare::Table table;
  std::vector<compare::GateFailure> failures;
  try {
    const compare::CompareOptions options = compare_options(o);
    table = against.empty() ? compare::compare_variants(runs.front(), options)
                            : compare::compare_runs(runs, against, options);
    if (o.gate.enabled()) failures = compare::gate_failures(table, o.gate.gate());
  } catch (const compare::CompareError& e) {
    if (!ok && o.gate.enabled()) return compare::report_gate({}, ok, std::cerr) ? kExitFailed : 0;
    throw CliError(ErrorKind::kUsage, printable(e.what()));  // names from the store
  }
  print(o, table);
  if (!o.gate.enabled()) return kExitOk;
  return compare::report_gate(failures, ok, std::cerr) ? kExitFailed : kExitOk;
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<CompareCliOptions>();
  auto* cmd = app.add_subcommand(
      "compare",
      "compare a run's variants with its baseline variant, per case and metric: change of "
      "medians, 95% CI, p-value and (I)/(R) verdicts; modes, flips, drift and cliffs in words. "
      "With --against RUN2, the same cases and variants of RUN2 are the reference (kernel A vs "
      "B): cases whose workload, parameters, placement, cpulist or PU count differ are refused "
      "(exit 2) unless --force, the fingerprint and topology fields that differ are listed, and "
      "several runs a side (RUN RUN3 --against RUN2 --against RUN4) are pooled, with the boots "
      "behind each side");
  cmd->add_option("run", o->runs,
                  "run_id or a unique prefix of it; several (with --against) are pooled")
      ->required();
  cmd->add_option("--baseline", o->baseline,
                  "variant to compare against (default: the plan's first); with --against, "
                  "compare only this variant");
  cmd->add_option("--against", o->against,
                  "a reference run (repeatable, or comma-separated: the reference runs are "
                  "pooled)")
      ->allow_extra_args(false)
      ->delimiter(',');
  cmd->add_flag("--force", o->force,
                "with --against: pair cases even when their definitions differ (the header "
                "says so)");
  cmd->add_option("--method", o->method,
                  "auto (with >= 5 iterations per side: Mann-Whitney U + Hodges-Lehmann and "
                  "Rosenbaum's exceedance test for a cliff, each at half the 5%; else Welch's t "
                  "on logs), mwu (the same whatever the count), welch or ci-overlap "
                  "(Fastpath/mmtests style)")
      ->check(CLI::IsMember({"auto", "mwu", "welch", "ci-overlap"}));
  add_disturbed_option(*cmd, o->disturbed);
  add_gate_options(*cmd, o->gate, true);
  auto* json = cmd->add_flag("--json", o->json, "JSON: rows with both sides' statistics");
  cmd->add_flag("--csv", o->csv, "CSV, one line per case, metric and variant")->excludes(json);
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  add_server_options(*cmd, o->server);
  cmd->callback([o, &exit_code] { exit_code = run_compare(*o); });
}

}  // namespace schedrig::host
