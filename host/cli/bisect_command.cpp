// `schedrig bisect-knobs`: see host/bisect/bisect.h and docs/bisect-knobs.md.
// On this machine, like `lab`: every probe is a lab run (loopback
// collector, a local schedrig-agent that journals and restores every knob),
// stored in the same SQLite file; the box's knobs are read from the agent
// before and after, and must be as found at the end. Through a server
// (--server URL --agent ID): the knobs come from the agent's Hello and every
// probe is a run queued on it (host/cli/bisect_remote.h); the box is judged
// as found when every probe's as-found iterations ran with the values the
// Hello reported and every probe's knobs were restored.
#include <functional>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "common/cli_error.h"
#include "common/exit_codes.h"
#include "common/ids.h"
#include "common/plan/plan_yaml.h"
#include "common/printable.h"
#include "common/stop_signal.h"
#include "host/bisect/bisect.h"
#include "host/bisect/box_knobs.h"
#include "host/bisect/probe.h"
#include "host/cli/bisect_remote.h"
#include "host/cli/commands.h"
#include "host/cli/server_options.h"
#include "host/client/remote_runs.h"
#include "host/lab/agent_process.h"
#include "host/lab/lab.h"
#include "host/store/default_db_path.h"
#include "host/store/store.h"
#include "host/store/store_error.h"

namespace schedrig::host {
namespace {

struct BisectCliOptions {
  ServerOptions server;
  std::string plan_file, case_name, target, db, agent, root, state_dir;
  std::vector<std::string> candidates = {"all"}, deny;
  int min_iterations = 5, max_iterations = 20, group_size = 0;
  double delta_pct = 2;
  bool json = false, verbose = false;
};

std::string db_path(const BisectCliOptions& o) {
  return o.db.empty() ? store::default_db_path() : o.db;
}

// The case to judge: --case, or the plan's only case.
std::string case_of(const BisectCliOptions& o, const v1::Plan& plan) {
  if (!o.case_name.empty()) return o.case_name;
  if (plan.cases_size() == 1) return plan.cases(0).name();
  throw CliError(ErrorKind::kUsage, fmt::format("{} has {} cases: name one with --case",
                                                o.plan_file, plan.cases_size()));
}

// The one run of --db that RUN (a prefix) names.
store::RunRecord local_target_run(const BisectCliOptions& o, const std::string& run_prefix) {
  store::Store store(db_path(o));
  const auto runs = store.runs(run_prefix);
  if (runs.size() != 1)
    throw CliError(ErrorKind::kUsage,
                   fmt::format("--target {}: {} runs in {} start with '{}'", printable(o.target),
                               runs.size(), store.path(), printable(run_prefix)));
  return runs.front();
}

// --target's RUN: a run id or its prefix (lowercase hex and '-', at most
// 36), or CliError(kUsage) naming the flag; nothing else reaches a store
// or a server.
void check_run_prefix(const std::string& target, const std::string& run_prefix) {
  const bool ok = !run_prefix.empty() && run_prefix.size() <= 36 &&
                  run_prefix.find_first_not_of("0123456789abcdef-") == std::string::npos;
  if (!ok)
    throw CliError(ErrorKind::kUsage,
                   fmt::format("--target {}: RUN[:VARIANT] starts with a run id or its prefix "
                               "(lowercase hex and '-', 1-36 characters), not '{}'",
                               printable(target), printable(run_prefix)));
}

// --target RUN[:VARIANT]: the judged metric's level in that stored run
// (--db's, or the server's).
void apply_target(const BisectCliOptions& o, client::ApiClient* api, bisect::BisectOptions& b) {
  if (o.target.empty()) return;
  const auto colon = o.target.find(':');
  const std::string run_prefix = o.target.substr(0, colon);
  const std::string variant = colon == std::string::npos ? "" : o.target.substr(colon + 1);
  check_run_prefix(o.target, run_prefix);
  store::RunRecord run;
  try {
    run = api ? client::fetch_run(*api, run_prefix) : local_target_run(o, run_prefix);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kUsage || dynamic_cast<const CliError*>(&e)) throw;
    throw CliError(ErrorKind::kUsage,
                   fmt::format("--target {}: {}", printable(o.target), e.what()));
  }
  bool disturbed = false;
  try {
    b.target_level = bisect::run_level(run, b.case_name, variant,
                                       bisect::judged_metric(b.plan, b.case_name), &disturbed);
  } catch (const std::invalid_argument& e) {
    throw CliError(ErrorKind::kUsage,
                   printable(fmt::format("--target {}: {}", o.target, e.what())));
  }
  b.target_name = "run " + run.run_id.substr(0, 8) + (variant.empty() ? "" : ":" + variant) +
                  (disturbed ? ", every iteration disturbed" : "");
}

// One probe as a lab run; its stored run.
store::RunRecord run_probe(const BisectCliOptions& o, const v1::Plan& plan) {
  lab::LabOptions lab;
  lab.plan = plan;
  lab.run_id = make_uuid_v4();
  lab.db_path = db_path(o);
  lab.agent = o.agent;
  lab.root = o.root;
  lab.state_dir = o.state_dir;
  lab.summary = false;
  lab.agent_log_level = o.verbose ? "warn" : "error";
  lab.labels = {{"bisect-knobs", "probe"}};
  std::ostringstream quiet;
  const int status = lab::run_lab(lab, o.verbose ? std::cerr : quiet);
  if (status == kExitInterrupted || install_stop_signals().load())
    throw Error(ErrorKind::kInterrupted,
                fmt::format("probe run {} stopped by a signal", lab.run_id.substr(0, 8)));
  store::Store store(lab.db_path);
  auto runs = store.runs(lab.run_id);
  if (runs.empty() || status == kExitUsage || status == kExitUnreachable) {
    const ErrorKind kind = status == kExitUsage         ? ErrorKind::kUsage
                           : status == kExitUnreachable ? ErrorKind::kUnreachable
                                                        : ErrorKind::kFailed;
    throw CliError(kind, fmt::format("probe run {} did not run: {}", lab.run_id.substr(0, 8),
                                     printable(quiet.str().substr(0, 2000))));
  }
  return runs.front();
}

// The box at the end against the box as found.
struct BoxAfter {
  std::string changes;  // " NAME: A -> B" or " probe RUN: REASON" each; "" when none
  std::string unknown;  // why it could not be read again ("" when it was)

  // "box left as found", "box NOT as found: ...", or "box as found: unknown (...)".
  std::string line() const {
    if (!changes.empty()) return "box NOT as found:" + printable(changes);
    if (!unknown.empty()) return "box as found: unknown (" + printable(unknown) + ")";
    return "box left as found";
  }
  int exit_code() const {
    return !changes.empty() ? kExitFailed : !unknown.empty() ? kExitUnreachable : kExitOk;
  }
  // JSON's box_as_found: true, false, or null when it could not be read.
  nlohmann::json as_found_json() const {
    if (!changes.empty()) return false;
    return unknown.empty() ? nlohmann::json(true) : nlohmann::json(nullptr);
  }
};

// Whether the agent failed to put `run`'s knobs back (its reason says so).
bool knobs_not_restored(const store::RunRecord& run) {
  return run.reason.find("knobs not restored") != std::string::npos;
}

// `e`'s text, or `e` again when it is Ctrl-C (which ends the command).
std::string not_interrupted(const std::exception& e) {
  const auto* error = dynamic_cast<const Error*>(&e);
  if (error && error->kind() == ErrorKind::kInterrupted) throw *error;
  return e.what();
}

// The box before, each probe, and the box after, on this machine or
// through a server.
struct Backend {
  bisect::BoxKnobs before;
  std::function<store::RunRecord(const v1::Plan&)> run;
  // The box now, `probes` the runs spent.
  std::function<BoxAfter(const std::vector<store::RunRecord>& probes)> after;
};

Backend local_backend(const BisectCliOptions& o) {
  const std::string agent = lab::find_agent_binary(o.agent);
  Backend b;
  b.before = bisect::read_local_box_knobs(agent, o.root, o.state_dir);
  b.run = [&o](const v1::Plan& plan) { return run_probe(o, plan); };
  b.after = [&o, agent, before = b.before](const std::vector<store::RunRecord>&) {
    BoxAfter after;
    try {
      after.changes =
          bisect::box_changes(before, bisect::read_local_box_knobs(agent, o.root, o.state_dir));
    } catch (const std::exception& e) {
      after.unknown = fmt::format("the knobs could not be read again: {}", not_interrupted(e));
    }
    return after;
  };
  return b;
}

Backend remote_backend(const BisectCliOptions& o, client::ApiClient& api) {
  Backend b;
  b.before = read_remote_box_knobs(api, o.agent);
  b.run = [&o, &api](const v1::Plan& plan) {
    return run_remote_probe(api, o.agent, plan, o.verbose);
  };
  b.after = [&o, &api, before = b.before](const std::vector<store::RunRecord>& probes) {
    BoxAfter after;
    for (const auto& run : probes)
      if (knobs_not_restored(run))
        after.changes += fmt::format(" probe {}: {}", run.run_id.substr(0, 8), run.reason);
    // A new agent instance said Hello again: its values are the box now.
    try {
      const bisect::BoxKnobs now = read_remote_box_knobs(api, o.agent);
      if (now.instance_id != before.instance_id) after.changes += bisect::box_changes(before, now);
    } catch (const std::exception& e) {
      after.unknown =
          fmt::format("the agent's knobs could not be read again: {}", not_interrupted(e));
    }
    return after;
  };
  return b;
}

bisect::BisectOptions bisect_options(const BisectCliOptions& o) {
  bisect::BisectOptions b;
  try {
    b.plan = load_plan_file(o.plan_file);
  } catch (const PlanError& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  b.case_name = case_of(o, b.plan);
  b.filter = {o.candidates, o.deny};
  b.rule = {.min_pairs = o.min_iterations, .max_pairs = o.max_iterations, .delta_pct = o.delta_pct};
  b.group_size = o.group_size;
  try {
    stats::check_rule(b.rule);
  } catch (const std::invalid_argument& e) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("--min-iterations {}, --max-iterations {}, --delta {}: {}",
                               o.min_iterations, o.max_iterations, o.delta_pct, e.what()));
  }
  try {
    bisect::judged_metric(b.plan, b.case_name);
  } catch (const std::invalid_argument& e) {
    throw CliError(ErrorKind::kUsage, printable(fmt::format("--case: {}", e.what())));
  }
  return b;
}

// The box changed under the search (not by it): exit 1.
class BoxDrift : public CliError {
 public:
  explicit BoxDrift(const std::string& message) : CliError(ErrorKind::kFailed, message) {}
};

// The probe `run` ran with the box as `before` says, or BoxDrift:
// the box changed since it was read, and no finding would mean anything.
void check_as_found(const bisect::BoxKnobs& before, const store::RunRecord& run) {
  const std::vector<std::string> drift = bisect::as_found_drift(before, run);
  if (drift.empty()) return;
  throw BoxDrift(printable(
      fmt::format("probe run {}: the box was not as read when it ran ({}): it changed since "
                  "(through a server: since the agent's Hello; restart the agent to read it "
                  "again); the search stops",
                  run.run_id.substr(0, 8), fmt::join(drift, "; "))));
}

// CliError(kFailed) when probe `run` ended so that the search cannot go on:
// aborted or interrupted (by someone else, or its agent gone), or its knobs
// not restored (the box is no longer as found). A run failed by a failed
// iteration goes on: its complete pairs still count.
void check_probe_ended_whole(const store::RunRecord& run) {
  const bool broken =
      run.status == "aborted" || run.status == "interrupted" || knobs_not_restored(run);
  if (!broken) return;
  throw CliError(ErrorKind::kFailed,
                 printable(fmt::format("probe run {} ended {}: {}; the search stops",
                                       run.run_id.substr(0, 8), run.status, run.reason)));
}

// bisect_knobs over `backend`, each probe kept in `probes` and checked as
// found; a bad filter is CliError(kUsage), a failed probe CliError(kFailed).
bisect::BisectResult search_knobs(const Backend& backend, const bisect::BisectOptions& b,
                                  std::vector<store::RunRecord>& probes) {
  try {
    return bisect::bisect_knobs(
        backend.before, b,
        [&](const v1::Plan& plan, const std::string&) {
          probes.push_back(backend.run(plan));
          check_probe_ended_whole(probes.back());
          check_as_found(backend.before, probes.back());
          return probes.back();
        },
        [](const std::string& line) { std::cerr << line << "\n"
                                                << std::flush; });
  } catch (const std::invalid_argument& e) {  // --candidates, --deny: names as given
    throw CliError(ErrorKind::kUsage, printable(e.what()));
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const Error*>(&e)) throw;
    throw CliError(ErrorKind::kFailed, printable(e.what()));
  }
}

int search(const BisectCliOptions& o, bisect::BisectOptions b, const Backend& backend) {
  b.filter.agent_denylist = backend.before.agent_deny;
  std::vector<store::RunRecord> probes;
  bisect::BisectResult result;
  try {
    result = search_knobs(backend, b, probes);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::kInterrupted) throw;
    // The search stopped after probes ran: say still whether the box is as
    // found (a box changed by someone else has said so already).
    if (!probes.empty() && !dynamic_cast<const BoxDrift*>(&e))
      std::cerr << backend.after(probes).line() << "\n";
    throw;
  }
  const BoxAfter after = backend.after(probes);
  if (o.json) {
    nlohmann::json j = bisect::bisect_json(result);
    j["box_as_found"] = after.as_found_json();
    if (!after.changes.empty()) j["box_changes"] = after.changes.substr(1);
    if (!after.unknown.empty()) j["box_unknown"] = after.unknown;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << bisect::bisect_text(result) << after.line() << "\n";
  }
  return after.exit_code();
}

// `f`'s exit code, or 130 saying so when Ctrl-C or SIGTERM stopped it.
template <typename F>
int stoppable(F f) {
  try {
    return f();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kInterrupted) throw;
    std::cerr << "bisect-knobs stopped; no report\n";
    return kExitInterrupted;
  }
}

int run_bisect(const BisectCliOptions& o) {
  bisect::BisectOptions b = bisect_options(o);
  if (!use_server(o.server, o.db)) {
    apply_target(o, nullptr, b);
    return stoppable([&] { return search(o, std::move(b), local_backend(o)); });
  }
  if (o.agent.empty())
    throw CliError(ErrorKind::kUsage,
                   "bisect-knobs --server: give the box with --agent ID (SCHEDRIG_SERVER set "
                   "means --server; give --db to search this machine)");
  if (!o.root.empty() || !o.state_dir.empty())
    throw CliError(ErrorKind::kUsage,
                   "bisect-knobs --server: --root and --state-dir are the local agent's; the "
                   "box's agent has its own");
  const auto api = make_api_client(o.server);
  api->stop_on_signals();
  apply_target(o, api.get(), b);
  return stoppable([&] { return search(o, std::move(b), remote_backend(o, *api)); });
}

// An option given as '' would mean its default (the lab's store, no
// target): refused instead.
const CLI::Validator kNotEmpty(
    [](const std::string& v) { return v.empty() ? std::string("empty") : std::string(); },
    "NOT EMPTY");

}  // namespace

void add_bisect_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<BisectCliOptions>();
  auto* cmd = app.add_subcommand(
      "bisect-knobs",
      "on this box as found, find the runtime knobs (sched features flipped, allowlisted "
      "sysctls and debugfs tunables set to each candidate value) that change a case's judged "
      "metric: groups of flips probed together and split only where there is an effect, each "
      "probe an A B A B run that stops once the verdict is settled (docs/bisect-knobs.md). Exit "
      "0 done and the box as found, 1 a knob was not restored or the box changed under the search, "
      "2 bad input, 3 the agent, server or a knob facility unreachable, " +
          std::to_string(kExitInterrupted) +
          " Ctrl-C (the probe under way is aborted). With --server URL --agent ID the probes "
          "are runs queued on that box through `schedrig serve`");
  add_server_options(*cmd, o->server);
  cmd->add_option("--plan", o->plan_file, "plan file (YAML) the case comes from")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--case", o->case_name, "the case to judge (default: the plan's only case)")
      ->check(kNotEmpty);
  cmd->add_option("--candidates", o->candidates,
                  "features, sysctls, tunables, all (default), or knob names (NI_RANDOM, "
                  "kernel.numa_balancing); comma-separated or repeated")
      ->delimiter(',');
  cmd->add_option("--deny", o->deny,
                  "knobs never to flip, beside the default denylist (LATENCY_WARN, "
                  "WARN_DOUBLE_CLOCK, the RT throttling pair, ...); comma-separated or repeated")
      ->delimiter(',');
  cmd->add_option(
         "--target", o->target,
         "RUN[:VARIANT] in --db (with --server: on the server) whose level of the judged metric "
         "is the goal: each "
         "knob's share of the gap to it is shown")
      ->check(kNotEmpty);
  cmd->add_option("--min-iterations", o->min_iterations,
                  "pairs (as found, flipped) before a probe's first look (>= 3; default 5)");
  cmd->add_option("--max-iterations", o->max_iterations,
                  "pairs at most per probe (default 20; at most 200)");
  cmd->add_option("--delta", o->delta_pct,
                  "the no-effect margin, %: a probe whose interval lies inside +-delta has no "
                  "effect (default 2, the gate's threshold; a case's gate threshold wins)");
  cmd->add_option("--group-size", o->group_size,
                  "flips probed together in the first pass (default: all of them)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--db", o->db,
                  "on this machine: the SQLite file the probes are stored in (default: the lab's, "
                  "/var/lib/schedrig/schedrig.db as root); through a server they are stored there")
      ->check(kNotEmpty);
  cmd->add_option("--agent", o->agent,
                  "with --server: the box's agent id; on this machine: the schedrig-agent "
                  "binary (default: $SCHEDRIG_AGENT, then beside this executable)")
      ->check(kNotEmpty);
  cmd->add_option("--root", o->root, "the agent's --root: a fake /proc and /sys tree (tests)")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--state-dir", o->state_dir, "the agent's --state-dir (knob journal)")
      ->check(kNotEmpty);
  cmd->add_flag("--json", o->json, "print the report as JSON");
  cmd->add_flag("--verbose", o->verbose, "show every probe's iterations as they run");
  cmd->callback([cmd, o, &exit_code] {
    if (cmd->get_parent()->get_option("--log-level")->count() == 0)
      spdlog::set_level(spdlog::level::warn);
    try {
      exit_code = run_bisect(*o);
    } catch (const store::StoreError& e) {
      throw CliError(e.kind(), e.what());
    } catch (const std::runtime_error& e) {
      if (dynamic_cast<const Error*>(&e)) throw;
      throw CliError(ErrorKind::kFailed, e.what());
    }
  });
}

}  // namespace schedrig::host
