// `schedrig lab`: the whole main job on this machine in one command. Starts
// the server on 127.0.0.1 (ephemeral port) with one fresh agent token, spawns
// a local `schedrig-agent connect` given the token on a pipe, queues the plan
// for it through the control plane once it has said Hello and sent its
// Topology (so the run is its, and the plan is checked against it), prints
// one progress line per iteration as results are stored, then
// the results table, where they are stored, the compare table and the sample
// summary per variant (with the quiet-box waits).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/plan/plan_yaml.h"
#include "host/compare/compare_table.h"
#include "host/compare/gate.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::lab {

struct LabOptions {
  std::string plan_file;                      // "" = the built-in default plan
  // A plan made in memory (bisect-knobs' probes): run instead of plan_file,
  // without --quick or --sample-hz.
  std::optional<schedrig::v1::Plan> plan;
  std::string run_id;  // "" = a new UUIDv4; the caller reads the run by it
  // For the agent: --root DIR (a fake /proc and /sys, tests) and
  // --state-dir DIR; "" = the agent's defaults.
  std::string root;
  std::string state_dir;
  bool summary = true;  // print the results, comparison and samples at the end
  bool quick = false;                         // 2 iterations x 0.5 s, no warm-up or cool-down
  std::string db_path;                        // "" = store::default_db_path()
  std::string agent;                          // --agent PATH, "" = search
  std::map<std::string, std::string> labels;  // --label K=V
  std::string agent_log_level = "warn";
  double sample_hz = -1;  // --sample-hz, < 0 = the plan's (after --quick)
  // The comparison table at the end: --threshold, --disturbed; --all-metrics.
  compare::CompareOptions compare;
  bool all_metrics = false;
  // --fail-on regression: the gate over that table (host/compare/gate.h).
  bool fail_on_regression = false;
  compare::GateOptions gate;
  std::string run_lock;            // --run-lock PATH for the agent; "" = the agent's default
  std::vector<std::string> tools;  // --tool NAME=PATH for the agent, each as given
  // How long the spawned agent has to connect and say Hello (not a flag).
  std::chrono::milliseconds connect_timeout{30'000};
};

// The plan lab would run: --plan FILE or the built-in default, with --quick
// and then --sample-hz applied; `lines`, when given, gets the line of every
// key (for the host's plan check to name them). Throws PlanError.
schedrig::v1::Plan lab_plan(const LabOptions& options, PlanLines* lines = nullptr);

// Runs the lab; returns the exit code of how it ended (0 ok; else
// exit_code_for the failure's ErrorKind: 1 the run failed or was aborted, or
// (fail_on_regression) the gate failed, saying so on stderr,
// 2 the agent refused the plan, 3 the agent could not be started, never
// connected or lacks a facility). SIGINT/SIGTERM (common/stop_signal.h) ask
// the agent to abort the run. Throws CliError for bad input (exit 2) and
// StoreError when the store cannot be used.
int run_lab(const LabOptions& options, std::ostream& out);

}  // namespace schedrig::lab
