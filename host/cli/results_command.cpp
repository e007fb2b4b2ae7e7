// `schedrig results [RUN] [--samples]`: stored runs, one line each, one run in
// detail, or one run's samples.
#include <iostream>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/printable.h"
#include "host/cli/commands.h"
#include "host/cli/read_store.h"
#include "host/cli/run_match.h"
#include "host/cli/server_options.h"
#include "host/client/remote_runs.h"
#include "host/report/report.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

struct ResultsOptions {
  std::string run;
  std::string db;
  bool json = false;
  bool csv = false;
  bool samples = false;
  bool fingerprint = false;
  ServerOptions server;
};

// `results RUN --samples`: the one run RUN names, one line per sample.
void run_samples(const ResultsOptions& o) {
  if (o.run.empty()) throw CliError(ErrorKind::kUsage, "results --samples: name the run (RUN)");
  const std::vector<store::SampleRecord> samples = read_store(o.db, [&](const store::Store& s) {
    return s.samples(match_run_id(s.run_ids(o.run), o.run));
  });
  if (o.json) {
    std::cout << report::samples_json(samples).dump(2) << "\n";
  } else if (o.csv) {
    report::print_samples_csv(samples, std::cout);
  } else {
    report::print_samples_table(samples, std::cout);
  }
}

// The runs to show: RUN from the server (GET /api/v1/runs/ID), else the
// store's runs RUN prefixes (all without RUN).
std::vector<store::RunRecord> runs_to_show(const ResultsOptions& o) {
  if (!use_server(o.server, o.db)) {
    return read_store(o.db, [&](const store::Store& s) { return s.runs(o.run); });
  }
  if (o.run.empty() || o.samples) {
    throw CliError(ErrorKind::kUsage,
                   "results --server shows one run: name it (RUN), without --samples (`watch RUN "
                   "--server` shows its samples)");
  }
  return {client::fetch_run(*make_api_client(o.server), o.run)};
}

// `results RUN --fingerprint`: the system fingerprint RUN stored.
void print_fingerprint(const ResultsOptions& o, const std::vector<store::RunRecord>& runs) {
  if (runs.size() != 1) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("results --fingerprint: '{}' matches {} runs; name one",
                               printable(o.run), runs.size()));
  }
  const store::RunRecord& run = runs.front();
  if (o.json) {
    std::cout << nlohmann::json{{"run_id", run.run_id}, {"fingerprint", run.fingerprint}}.dump(2)
              << "\n";
  } else {
    report::print_fingerprint(run, std::cout);
  }
}

void run_results(const ResultsOptions& o) {
  if (o.samples && !use_server(o.server, o.db)) return run_samples(o);
  if (o.fingerprint && o.run.empty()) {
    throw CliError(ErrorKind::kUsage, "results --fingerprint: name the run (RUN)");
  }
  const std::vector<store::RunRecord> runs = runs_to_show(o);
  if (!o.run.empty() && runs.empty()) {
    throw CliError(ErrorKind::kUsage, fmt::format("no run matches '{}'", printable(o.run)));
  }
  if (o.fingerprint) return print_fingerprint(o, runs);
  if (o.json) {
    std::cout << report::results_json(runs).dump(2) << "\n";
  } else if (o.csv) {
    report::print_results_csv(runs, std::cout);
  } else if (!o.run.empty() && runs.size() == 1) {
    report::print_run_detail(runs.front(), std::cout);
    report::print_sample_summary(runs.front(), std::cout);
  } else {
    report::print_runs_table(runs, std::cout);
  }
}

}  // namespace

void add_results_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ResultsOptions>();
  auto* cmd = app.add_subcommand(
      "results",
      "show stored runs: one line per run, or one run's iterations and metrics and what the "
      "sampler saw per variant when RUN (a run_id or its prefix) is given; with --samples, "
      "every sample of RUN. With --server, RUN as the server stored it");
  cmd->add_option("run", o->run, "run_id or a prefix of it");
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  cmd->add_flag("--samples", o->samples,
                "one line per sampler interval of RUN: time, case, variant, iteration, ops so "
                "far, idle %, runnable, ctxt/s, wait share, newidle/s, PSI, STARVED flag");
  auto* fingerprint = cmd->add_flag(
      "--fingerprint", o->fingerprint,
      "the system fingerprint RUN stored at its start, one field per line: kernel release and "
      "command line, sched features, and every other field its agent recorded (cpufreq "
      "governor, SMT, THP, autogroup, ...); with --json {run_id, fingerprint}");
  fingerprint->excludes("--samples");
  auto* json =
      cmd->add_flag("--json", o->json,
                    "JSON in the shape of docs/architecture.md's results model (with --samples: "
                    "{\"samples\":[...]})");
  cmd->add_flag("--csv", o->csv, "CSV, one row per metric (with --samples: per sample)")
      ->excludes(json)
      ->excludes(fingerprint);
  add_server_options(*cmd, o->server);
  cmd->callback([o, &exit_code] {
    run_results(*o);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
