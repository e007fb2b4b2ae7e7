// `schedrig nightly --lab F --server URL [--out DIR | --resume DIR]
// [--history F] [--dry-run] [--json]`: a night of lab runs across kernels
// (docs/nightly.md): the lab file checked with its plans, its agents
// resolved on the server (each must list every kernel), then per agent in
// parallel the interleaved boots, every plan and the selftest in each boot,
// and the verdicts against the baseline kernel. --dry-run prints the
// schedule only.
#include <ctime>
#include <iostream>
#include <mutex>

#include "common/cli_error.h"
#include "common/exit_codes.h"
#include "common/state_dir.h"
#include "host/cli/commands.h"
#include "host/cli/server_options.h"
#include "host/client/api_paths.h"
#include "host/client/server_target.h"
#include "host/nightly/lab_file.h"
#include "host/nightly/night_agents.h"
#include "host/nightly/night_driver.h"
#include "host/nightly/night_files.h"
#include "host/nightly/night_plan_text.h"
#include "host/nightly/night_run.h"

namespace schedrig::host {
namespace {

struct NightlyOptions {
  std::string lab;
  std::string out;
  std::string resume;
  std::string nights;
  std::string history;
  std::string selftest_plan;
  double boot_timeout_s = 900;
  double poll_s = 1;
  bool dry_run = false;
  bool json = false;
  ServerOptions server;
};

int dry_run(const NightlyOptions& o, const nightly::LabFile& lab) {
  const auto api = make_api_client(o.server);
  const std::vector<nightly::NightAgent> night =
      nightly::resolve_night_agents(lab, api->get_json(client::agents_path()));
  nightly::check_plans_on_agents(
      *api, nightly::night_plans(lab, nightly::selftest_text(lab, o.selftest_plan)), night);
  if (o.json) {
    std::cout << nightly::schedule_json(lab, night).dump(2) << "\n";
  } else {
    std::cout << nightly::schedule_text(lab, night);
  }
  return kExitOk;
}

// The night's OUT: exactly one of --out, --resume, --nights.
std::string night_out(const NightlyOptions& o) {
  const int given = !o.out.empty() + !o.resume.empty() + !o.nights.empty();
  if (given != 1)
    throw CliError(ErrorKind::kUsage,
                   given == 0 ? "nightly: give --out DIR (a new night), --nights DIR (a new night "
                                "in DIR, as the timer does), --resume DIR or --dry-run"
                              : "nightly: give one of --out DIR, --nights DIR and --resume DIR");
  if (!o.nights.empty()) return nightly::new_night_dir(o.nights, std::time(nullptr));
  return o.resume.empty() ? o.out : o.resume;
}

int run_nightly(const NightlyOptions& o) {
  const nightly::LabFile lab = nightly::load_lab_file(o.lab);
  if (o.dry_run) return dry_run(o, lab);
  nightly::NightOptions n;
  n.target = client::server_target(o.server.server, o.server.token_file, o.server.ca);
  n.out_dir = night_out(o);
  n.resume = !o.resume.empty();
  n.history = o.history.empty() ? default_state_dir() + "/nightly-history.jsonl" : o.history;
  n.selftest_plan = o.selftest_plan;
  n.boot_timeout = std::chrono::seconds(static_cast<long>(o.boot_timeout_s));
  n.poll = std::chrono::milliseconds(static_cast<long>(o.poll_s * 1000));
  auto mu = std::make_shared<std::mutex>();
  n.progress = [mu](const std::string& line) {
    std::lock_guard lock(*mu);
    std::cerr << line << "\n";
  };
  const nightly::NightOutcome out = nightly::run_night(lab, n);
  std::cout << (o.json ? out.json : out.text);
  return out.exit_code;
}

}  // namespace

void add_nightly_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<NightlyOptions>();
  auto* cmd = app.add_subcommand(
      "nightly",
      "a night of lab runs across kernels: per agent, boots interleaved A B A B (boots_per_kernel "
      "each), every plan and the selftest in each boot, then each kernel against the baseline "
      "kernel with the boot as the unit (docs/nightly.md). Exit 0 clean, 1 a gated regression, 2 "
      "bad input, 3 a box lost, a wrong kernel or the detector failed");
  cmd->add_option("--lab", o->lab, "the lab file (YAML: agents, kernels, plans, ...)")->required();
  cmd->add_option("--out", o->out, "a new directory for the night: night.json, summary.txt/json");
  cmd->add_option("--resume", o->resume, "carry on the night in this directory (night.json)");
  cmd->add_option("--nights", o->nights,
                  "a new night in DIR/YYYY-MM-DDTHHMMZ (UTC start; DIR created 0700 if missing): "
                  "what schedrig-nightly.service runs");
  cmd->add_option("--history", o->history,
                  "the history of kernels that passed (baseline: last_good); default "
                  "STATE_DIR/nightly-history.jsonl");
  cmd->add_option("--selftest-plan", o->selftest_plan,
                  "a plan to run as the selftest instead of the built-in one (one variant with an "
                  "antagonist)");
  cmd->add_option("--boot-timeout", o->boot_timeout_s,
                  "seconds a box may take to come back from a boot (900)")
      ->check(CLI::Range(1.0, 86400.0));
  cmd->add_option("--poll", o->poll_s, "seconds between polls of the server (1)")
      ->check(CLI::Range(0.05, 60.0));
  cmd->add_flag("--dry-run", o->dry_run, "print the night's schedule and exit");
  cmd->add_flag("--json", o->json, "the schedule or the summary as JSON");
  add_server_options(*cmd, o->server);
  cmd->callback([o, &exit_code] { exit_code = run_nightly(*o); });
}

}  // namespace schedrig::host
