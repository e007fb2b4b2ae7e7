// `schedrig results [RUN]`: stored runs, one line each, or one run in detail.
#include <iostream>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "host/cli/commands.h"
#include "host/cli/read_store.h"
#include "host/report/report.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

struct ResultsOptions {
  std::string run;
  std::string db;
  bool json = false;
  bool csv = false;
};

void run_results(const ResultsOptions& o) {
  const std::vector<store::RunRecord> runs =
      read_store(o.db, [&](const store::Store& s) { return s.runs(o.run); });
  if (!o.run.empty() && runs.empty()) {
    throw CliError(kExitUsage, fmt::format("no run matches '{}'", o.run));
  }
  if (o.json) {
    std::cout << report::results_json(runs).dump(2) << "\n";
  } else if (o.csv) {
    report::print_results_csv(runs, std::cout);
  } else if (!o.run.empty() && runs.size() == 1) {
    report::print_run_detail(runs.front(), std::cout);
  } else {
    report::print_runs_table(runs, std::cout);
  }
}

}  // namespace

void add_results_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ResultsOptions>();
  auto* cmd = app.add_subcommand(
      "results",
      "show stored runs: one line per run, or one run's iterations and metrics when RUN (a "
      "run_id or its prefix) is given");
  cmd->add_option("run", o->run, "run_id or a prefix of it");
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  auto* json = cmd->add_flag("--json", o->json, "JSON in the shape of DESIGN.md's results model");
  cmd->add_flag("--csv", o->csv, "CSV, one row per metric")->excludes(json);
  cmd->callback([o, &exit_code] {
    run_results(*o);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
