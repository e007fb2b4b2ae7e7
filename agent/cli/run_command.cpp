// `schedrig-agent run --plan F [--out F]`: the flags of a session with no
// host (agent/session/offline_session.h), and the plan they name.
#include <iostream>

#include <fmt/format.h>

#include "agent/cli/commands.h"
#include "agent/cli/state_options.h"
#include "agent/session/offline_session.h"
#include "common/cli_error.h"
#include "common/ids.h"
#include "common/labels.h"
#include "common/plan/plan_yaml.h"
#include "common/sample_rate.h"
#include "common/stop_signal.h"
#include "common/wire_names.h"

namespace schedrig::agent {
namespace {

namespace v1 = schedrig::v1;

struct RunOptions {
  std::string plan;
  std::string out;
  std::string id;
  std::vector<std::string> labels;
  double sample_hz = -1;  // < 0: the plan's
  StateOptions state;
  std::vector<std::string> tools;  // --tool NAME=PATH
};

v1::StartRun start_run(const RunOptions& o, PlanLines& lines) {
  v1::StartRun start;
  start.set_run_id(make_uuid_v4());
  try {
    *start.mutable_plan() = load_plan_file(o.plan, &lines);
    if (o.sample_hz >= 0) start.mutable_plan()->set_sample_hz(o.sample_hz);
  } catch (const PlanError& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  for (const auto& [k, v] : parse_labels(o.labels)) (*start.mutable_labels())[k] = v;
  return start;
}

void run_command(const RunOptions& o, int& exit_code) {
  PlanLines lines;
  const v1::StartRun start = start_run(o, lines);
  const v1::RunFinished done =
      run_offline(start, OfflineOptions{o.out, o.id, o.state, o.plan, std::move(lines)},
                  install_stop_signals(), std::cout);
  std::cout << fmt::format("run {}: {} ({} iterations){}\n", start.run_id(),
                           status_name(done.status()), done.completed_iterations(),
                           o.out.empty() ? "" : "; load it with: schedrig import " + o.out);
  exit_code = done.status() == v1::STATUS_OK ? kExitOk : kExitFailed;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand(
      "run",
      "run a plan on this machine with no host: variants' knobs are applied, journaled and "
      "restored as with a host; with --out the envelope stream goes to a file that `schedrig "
      "import F` loads into the store. Exit 0 ok, 1 an iteration failed, 2 bad plan, 3 a knob "
      "cannot be changed here");
  cmd->add_option("--plan", o->plan, "plan file (YAML)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", o->out, "write the envelope stream here (schedrig offline file)");
  cmd->add_option("--id", o->id, "agent id (default: hostname)");
  cmd->add_option("--label", o->labels, "K=V label for the run; repeatable");
  cmd->add_option("--sample-hz", o->sample_hz,
                  "sampler rate during each measured window, overriding the plan's sample_hz "
                  "(0 = no sampling, else 0.01 to 20; default: the plan's, else 1)")
      ->check(sample_hz_text_problem);
  add_state_options(*cmd, o->state);
  add_run_lock_options(*cmd, o->state.run_lock);
  add_tool_options(*cmd, o->tools);
  cmd->callback([o, &exit_code] {
    apply_tool_flags(o->state.tools, o->tools);
    run_command(*o, exit_code);
  });
}

}  // namespace schedrig::agent
