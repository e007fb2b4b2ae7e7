// `schedrig lab`: see host/lab/lab.h.
#include <iostream>

#include <spdlog/spdlog.h>

#include "agent/tools/tool_paths.h"
#include "common/cli_error.h"
#include "common/labels.h"
#include "common/logging.h"
#include "common/sample_rate.h"
#include "host/cli/commands.h"
#include "host/cli/gate_options.h"
#include "host/lab/lab.h"
#include "host/store/store_error.h"

namespace schedrig::host {

void add_lab_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<lab::LabOptions>();
  auto labels = std::make_shared<std::vector<std::string>>();
  auto gate = std::make_shared<GateCliOptions>();
  auto disturbed = std::make_shared<std::string>("exclude");
  auto* cmd = app.add_subcommand(
      "lab",
      "run the main job on this machine in one command: start a collector on loopback, spawn "
      "a local schedrig-agent, run the plan (default: plans/default.yaml, fork, wakeup and kv "
      "under the box as found and with autogroup off, 5 x 2 s each, about 2 minutes), print a "
      "line per iteration, the results, each variant against the baseline and what the sampler "
      "saw per variant, and store everything in SQLite");
  cmd->add_flag("--quick", o->quick,
                "2 iterations x 0.5 s, no warm-up or cool-down, 4 samples/s, 0.2 s quiet hold "
                "(for tests)");
  cmd->add_option("--plan", o->plan_file,
                  "plan file (YAML); default: the built-in plans/default.yaml")
      ->check(CLI::ExistingFile);
  cmd->add_option("--db", o->db_path,
                  "SQLite file for results (default: /var/lib/schedrig/schedrig.db as root, "
                  "else $XDG_STATE_HOME/schedrig/schedrig.db)");
  cmd->add_option("--agent", o->agent,
                  "schedrig-agent binary (default: $SCHEDRIG_AGENT, then beside this executable)");
  cmd->add_option("--label", *labels, "K=V label for the run; repeatable (kernel=6.19-rc3)");
  cmd->add_option("--sample-hz", o->sample_hz,
                  "sampler rate during each measured window, overriding the plan's sample_hz "
                  "(0 = no sampling, else 0.01 to 20)")
      ->check(sample_hz_text_problem);
  cmd->add_option("--run-lock", o->run_lock,
                  "the run lock the agent holds while the run runs (schedrig-agent connect "
                  "--run-lock; default $SCHEDRIG_RUN_LOCK, else /run/schedrig/run.lock): a lab "
                  "waits for any other run on this box to end");
  cmd->add_option("--tool", o->tools,
                  "NAME=PATH passed to the agent (schedrig-agent connect --tool): the binary "
                  "that runs for external tool NAME (schbench, stress-ng, hackbench, perf for "
                  "perf-bench-sched), an absolute path; repeatable")
      ->check(CLI::Validator([](const std::string& text) { return tools::tool_path_problem(text); },
                             "NAME=PATH"));
  cmd->add_option("--agent-log-level", o->agent_log_level, "log level passed to the agent")
      ->check(CLI::IsMember(schedrig::kLogLevels));
  add_disturbed_option(*cmd, *disturbed);
  add_gate_options(*cmd, *gate, true);
  cmd->callback([cmd, o, labels, gate, disturbed, &exit_code] {
    // Progress lines are the lab's output; the collector's info logs would
    // interleave with them, so they show only when --log-level is given.
    if (cmd->get_parent()->get_option("--log-level")->count() == 0)
      spdlog::set_level(spdlog::level::warn);
    o->labels = parse_labels(*labels);
    o->compare.threshold_pct = gate->threshold_pct;
    o->compare.disturbed = *compare::parse_disturbed(*disturbed);  // CLI11 checked the word
    o->all_metrics = gate->all_metrics;
    o->fail_on_regression = gate->enabled();
    o->gate = gate->gate();
    try {
      exit_code = lab::run_lab(*o, std::cout);
    } catch (const store::StoreError& e) {
      throw CliError(e.kind(), e.what());
    }
  });
}

}  // namespace schedrig::host
