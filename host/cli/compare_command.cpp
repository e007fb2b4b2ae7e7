// `schedrig compare RUN`: every variant of a run against its baseline, or
// the run against another (--against), with verdicts (docs/architecture.md
// "Statistics"; docs/statistics.md).
#include <algorithm>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/printable.h"
#include "host/cli/commands.h"
#include "host/cli/read_store.h"
#include "host/cli/run_match.h"
#include "host/cli/server_options.h"
#include "host/client/remote_runs.h"
#include "host/compare/compare_table.h"
#include "host/report/compare_json.h"
#include "host/report/compare_text.h"
#include "host/report/run_status_text.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

struct CompareCliOptions {
  std::string run, against, baseline, db, fail_on;
  std::string method = "auto";
  double threshold = 0;
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

// RUN and (with --against) RUN2: from the server (GET /api/v1/runs/ID each),
// else from the store. Only the runs the ids can match are loaded: a store
// of many big runs stays fast.
std::pair<store::RunRecord, std::optional<store::RunRecord>> runs_to_compare(
    const CompareCliOptions& o) {
  if (use_server(o.server, o.db)) {
    const auto api = make_api_client(o.server);
    store::RunRecord run = client::fetch_run(*api, o.run);
    if (o.against.empty()) return {std::move(run), std::nullopt};
    return {std::move(run), client::fetch_run(*api, o.against)};
  }
  const auto [runs, against_runs] = read_store(o.db, [&](const store::Store& s) {
    // Without sample summaries: compare never shows them, and they cost.
    const store::RunsOptions lean{.sample_summaries = false};
    return std::pair{s.runs(o.run, lean),
                     o.against.empty() ? std::vector<store::RunRecord>{} : s.runs(o.against, lean)};
  });
  store::RunRecord run = find_run(runs, o.run);
  if (o.against.empty()) return {std::move(run), std::nullopt};
  return {std::move(run), find_run(against_runs, o.against)};
}

// Says on stderr which of the compared runs did not end ok (its status,
// reason and results); true when one did not.
bool note_runs_not_ok(const store::RunRecord& run, const std::optional<store::RunRecord>& against) {
  bool not_ok = false;
  for (const store::RunRecord* r : {&run, against ? &*against : nullptr}) {
    if (!r || r->status == "ok") continue;
    std::cerr << printable(report::run_status_note(*r)) << "\n";
    not_ok = true;
  }
  return not_ok;
}

// The exit code under --fail-on regression: kExitFailed, saying why, when a
// compared run did not end ok (its verdicts mean nothing) or a row regressed.
int gate(const CompareCliOptions& o, bool not_ok, const compare::Table* table) {
  if (o.fail_on.empty()) return kExitOk;
  if (not_ok) {
    std::cerr << "--fail-on regression: a compared run did not finish ok\n";
    return kExitFailed;
  }
  return table && compare::has_regression(*table) ? kExitFailed : kExitOk;
}

int run_compare(const CompareCliOptions& o) {
  if (o.run.empty()) throw CliError(ErrorKind::kUsage, "compare: RUN must not be empty");
  const auto [run, against] = runs_to_compare(o);
  const bool not_ok = note_runs_not_ok(run, against);
  compare::CompareOptions options;
  options.baseline_variant = o.baseline;
  options.method = *analysis::parse_method(o.method);  // CLI11 checked the word
  options.threshold_pct = o.threshold;
  compare::Table table;
  try {
    table = against ? compare::compare_runs(run, *against, options)
                    : compare::compare_variants(run, options);
  } catch (const compare::CompareError& e) {
    if (not_ok && !o.fail_on.empty()) return gate(o, not_ok, nullptr);
    throw CliError(ErrorKind::kUsage, e.what());
  }
  if (o.json) {
    std::cout << report::compare_json(table).dump(2) << "\n";
  } else if (o.csv) {
    report::print_compare_csv(table, std::cout);
  } else {
    report::print_compare_table(table, std::cout);
  }
  return gate(o, not_ok, &table);
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<CompareCliOptions>();
  auto* cmd = app.add_subcommand(
      "compare",
      "compare a run's variants with its baseline variant, per case and metric: change of "
      "medians, 95% CI, p-value and (I)/(R) verdicts; modes, flips and drift in words. With "
      "--against RUN2, the same cases and variants of RUN2 are the reference (kernel A vs B) and "
      "the fingerprint fields that differ are listed");
  cmd->add_option("run", o->run, "run_id or a unique prefix of it")->required();
  cmd->add_option("--baseline", o->baseline,
                  "variant to compare against (default: the plan's first); with --against, "
                  "compare only this variant");
  cmd->add_option("--against", o->against, "another run to use as the reference");
  cmd->add_option("--method", o->method,
                  "auto (Mann-Whitney U + Hodges-Lehmann with >= 5 iterations per side, else "
                  "Welch's t on logs), mwu, welch or ci-overlap (Fastpath/mmtests style)")
      ->check(CLI::IsMember({"auto", "mwu", "welch", "ci-overlap"}));
  cmd->add_option("--threshold", o->threshold,
                  "percent; smaller changes are never marked (I)/(R) (default 0)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--fail-on", o->fail_on,
                  "exit 1 when any row is a regression, or when a compared run did not finish ok "
                  "(failed, aborted, never started, still running)")
      ->check(CLI::IsMember({"regression"}));
  auto* json = cmd->add_flag("--json", o->json, "JSON: rows with both sides' statistics");
  cmd->add_flag("--csv", o->csv, "CSV, one line per case, metric and variant")->excludes(json);
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  add_server_options(*cmd, o->server);
  cmd->callback([o, &exit_code] { exit_code = run_compare(*o); });
}

}  // namespace schedrig::host
