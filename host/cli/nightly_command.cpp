// `schedrig nightly --lab F --server URL [--dry-run] [--json]`: a night of
// lab runs across kernels (docs/nightly.md). What is built: the lab file
// checked (with every plan), its agents resolved on the server (each must
// list every kernel of the night) and the night's schedule printed
// (--dry-run). Running the night is not built yet: without --dry-run the
// command says so and exits 2.
#include <iostream>

#include "common/cli_error.h"
#include "common/exit_codes.h"
#include "host/cli/commands.h"
#include "host/cli/server_options.h"
#include "host/client/api_paths.h"
#include "host/nightly/lab_file.h"
#include "host/nightly/night_agents.h"
#include "host/nightly/night_plan_text.h"

namespace schedrig::host {
namespace {

struct NightlyOptions {
  std::string lab;
  std::string out;
  bool dry_run = false;
  bool json = false;
  ServerOptions server;
};

void run_nightly(const NightlyOptions& o) {
  const nightly::LabFile lab = nightly::load_lab_file(o.lab);
  if (!o.dry_run) {
    throw CliError(ErrorKind::kUsage,
                   "nightly: running a night is not built yet (docs/nightly.md \"What is "
                   "built\"); --dry-run prints its schedule");
  }
  const nlohmann::json agents = make_api_client(o.server)->get_json("/api/v1/agents");
  const std::vector<nightly::NightAgent> night = nightly::resolve_night_agents(lab, agents);
  if (o.json) {
    std::cout << nightly::schedule_json(lab, night).dump(2) << "\n";
  } else {
    std::cout << nightly::schedule_text(lab, night);
  }
}

}  // namespace

void add_nightly_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<NightlyOptions>();
  auto* cmd = app.add_subcommand(
      "nightly",
      "a night of lab runs across kernels: per agent, boots interleaved A B A B (boots_per_kernel "
      "each), every plan and the selftest in each boot (docs/nightly.md); --dry-run prints the "
      "schedule after checking the lab file, its plans and that every agent lists every kernel");
  cmd->add_option("--lab", o->lab, "the lab file (YAML: agents, kernels, plans, ...)")->required();
  cmd->add_option("--out", o->out, "where the night's summary goes (a directory)");
  cmd->add_flag("--dry-run", o->dry_run, "print the night's schedule and exit");
  cmd->add_flag("--json", o->json, "the schedule as JSON");
  add_server_options(*cmd, o->server);
  cmd->callback([o, &exit_code] {
    run_nightly(*o);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
