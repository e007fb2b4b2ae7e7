#include "host/lab/lab.h"

#include <sys/wait.h>

#include <memory>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/auth/token.h"
#include "common/cli_error.h"
#include "common/ids.h"
#include "common/plan/plan_yaml.h"
#include "common/plan/schedule.h"
#include "common/printable.h"
#include "common/stop_signal.h"
#include "common/wait_status.h"
#include "host/compare/compare_table.h"
#include "host/compare/pooled_latency.h"
#include "host/control/api_error.h"
#include "host/lab/agent_process.h"
#include "host/lab/default_plan.h"
#include "host/lab/lab_driver.h"
#include "host/lab/loopback_collector.h"
#include "host/lab/run_deadline.h"
#include "host/report/compare_text.h"
#include "host/report/report.h"
#include "host/store/default_db_path.h"

namespace schedrig::lab {
namespace {

constexpr const char* kBuiltInPlanName = "<built-in plans/default.yaml>";

using namespace std::chrono_literals;
namespace v1 = schedrig::v1;

// When to give up on the run (run_deadline.h), in double seconds so a long
// plan cannot overflow.
std::chrono::steady_clock::time_point run_deadline(const v1::Plan& plan, std::size_t slots) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(run_allowed_s(plan, slots)));
}

// Prints what was stored, the comparison and the sample summary; false when
// the gate (--fail-on regression) fails.
bool print_summary(store::Store& store, const std::string& run_id, const LabOptions& o,
                   std::ostream& out) {
  auto runs = store.runs(run_id, {.sample_summaries = true, .histograms = true});
  if (runs.empty()) return !o.fail_on_regression;
  out << "\n";
  report::print_run_detail(runs.front(), out);
  out << fmt::format("\nstored in {}\nsee: schedrig results {} --db {}\n", store.path(),
                     run_id.substr(0, 8), store.path());
  // The run's own comparison: every variant against the baseline variant.
  out << fmt::format("     schedrig compare {} --db {}\n", run_id.substr(0, 8), store.path());
  out << fmt::format("     schedrig report {} --html run.html --db {}\n\n", run_id.substr(0, 8),
                     store.path());
  std::vector<compare::GateFailure> failures;
  bool judged = true;  // a comparison the gate could judge
  try {
    compare::Table table = compare::compare_variants(runs.front(), o.compare);
    table.pooled = compare::pooled_latency(table, runs, {});
    report::print_compare_table(table, out, {o.all_metrics});
    if (o.fail_on_regression) failures = compare::gate_failures(table, o.gate);
  } catch (const compare::CompareError& e) {
    out << "compare: " << printable(e.what()) << "\n";
    judged = false;
  }
  // What the sampler saw per variant, and the quiet-box waits (issue #6).
  report::print_sample_summary(runs.front(), out);
  out << std::flush;
  if (!o.fail_on_regression) return true;
  if (!judged) std::cerr << "--fail-on regression: nothing to judge (see 'compare:' above)\n";
  return !compare::report_gate(failures, runs.front().status == "ok", std::cerr) && judged;
}

// The plan to run; CliError (exit 2) when it cannot be read.
v1::Plan checked_plan(const LabOptions& o, PlanLines& lines) {
  try {
    return lab_plan(o, &lines);
  } catch (const PlanError& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
}

// The agent binary; CliError (exit 2) naming where it looked.
std::string checked_agent_path(const LabOptions& o) {
  try {
    return find_agent_binary(o.agent);
  } catch (const std::runtime_error& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
}

// `schedrig-agent connect URL --token-fd 3 --give-up-after 30`, the token on
// a pipe (never on its command line); a lab killed with SIGKILL leaves an
// agent that gives up 30 s later instead of redialing for ever. CliError
// (exit 3) when it cannot be started.
std::unique_ptr<AgentProcess> start_agent(const std::string& path, const LabOptions& o,
                                          const std::string& url, const std::string& token) {
  constexpr int kTokenFd = 3;
  std::vector<std::string> args{"--log-level", o.agent_log_level,        "connect",         url,
                                "--token-fd",  std::to_string(kTokenFd), "--give-up-after", "30"};
  if (!o.run_lock.empty()) args.insert(args.end(), {"--run-lock", o.run_lock});
  if (!o.root.empty()) args.insert(args.end(), {"--root", o.root});
  if (!o.state_dir.empty()) args.insert(args.end(), {"--state-dir", o.state_dir});
  for (const std::string& tool : o.tools) args.insert(args.end(), {"--tool", tool});
  try {
    return std::make_unique<AgentProcess>(path, args, SecretFd{kTokenFd, token});
  } catch (const std::runtime_error& e) {
    throw CliError(ErrorKind::kUnreachable, e.what());
  }
}

// Queues the run for the lab's agent through the control plane (checked
// against the agent's Hello and Topology, then started at once). A plan the
// check refuses is a failure of kind kUsage, or kUnreachable for a knob the
// agent cannot change.
std::optional<LabFailure> submit_run(control::Control& control, const LabOptions& o,
                                     const v1::Plan& plan, const PlanLines& lines,
                                     const std::string& agent_id, const std::string& run_id) {
  control::Submission s;
  s.agents = {agent_id};
  s.plan = plan;
  s.lines = lines;
  s.plan_name = o.plan ? o.plan->name() : o.plan_file.empty() ? kBuiltInPlanName : o.plan_file;
  s.labels = o.labels;
  s.run_id = run_id;
  try {
    control.submit(s, "lab");
  } catch (const control::ApiError& e) {
    return LabFailure{e.what(), e.body().value("facility_unavailable", false)
                                    ? ErrorKind::kUnreachable
                                    : ErrorKind::kUsage};
  }
  return std::nullopt;
}

// Asks the agent to abort the run (SIGINT/SIGTERM); a run that has just
// ended needs nothing.
void abort_run(control::Control& control, const std::string& run_id) {
  try {
    control.abort(run_id, "a stop signal to lab");
  } catch (const control::ApiError& e) {
    spdlog::info("abort: {}", e.what());
  }
}

// After a failed run: says why, marks the run failed, shows what was stored,
// and returns the exit code of the failure's kind (the agent's own Error
// answer, when it sent one, decides).
int report_failure(const LabFailure& failure, const LabDriver& driver, store::Store& store,
                   const std::string& run_id, const LabOptions& o, std::ostream& out) {
  out << "lab: " << failure.reason << "\n";
  // The queue row too: a run that timed out has a live agent, so nothing else ends it.
  if (auto row = store.queued_run(run_id);
      row && (row->state == "queued" || row->state == "running")) {
    store.finish_queued_run(run_id, "failed", "lab: " + failure.reason);
  }
  store.fail_unfinished_run(run_id, "lab: " + failure.reason);
  if (o.summary) print_summary(store, run_id, o, out);
  return exit_code_for(driver.agent_error_kind().value_or(failure.kind));
}

}  // namespace

v1::Plan lab_plan(const LabOptions& o, PlanLines* lines) {
  if (o.plan) return *o.plan;
  v1::Plan plan = o.plan_file.empty()
                      ? parse_plan_yaml(default_plan_yaml(), kBuiltInPlanName, lines)
                      : load_plan_file(o.plan_file, lines);
  if (o.quick) {
    plan.set_iterations(2);
    plan.set_duration_ns(500'000'000);
    plan.set_warmup_ns(0);
    plan.set_cooldown_ns(0);
    plan.set_sample_hz(4);  // a few samples even in 0.5 s
    plan.mutable_quiet()->set_hold_s(0.2);
    plan.mutable_quiet()->set_timeout_s(2);
  }
  if (o.sample_hz >= 0) plan.set_sample_hz(o.sample_hz);
  return plan;
}

int run_lab(const LabOptions& o, std::ostream& out) {
  PlanLines lines;
  const v1::Plan plan = checked_plan(o, lines);
  const std::size_t slots = make_schedule(plan).size();
  const std::string agent_path = checked_agent_path(o);
  store::Store store(o.db_path.empty() ? store::default_db_path() : o.db_path);
  const std::string run_id = o.run_id.empty() ? make_uuid_v4() : o.run_id;
  const std::string agent_id = lab_agent_id();
  const auto deadline = run_deadline(plan, slots);
  const std::string token = auth::new_token();
  LabDriver driver(run_id, agent_id, out, slots, o.connect_timeout);
  const std::atomic<bool>& stop = install_stop_signals();

  LoopbackCollector server(store, driver, agent_id, token);
  out << fmt::format("collector on {}; results go to {}\n", server.url(), store.path())
      << std::flush;
  std::unique_ptr<AgentProcess> agent = start_agent(agent_path, o, server.url(), token);
  std::optional<LabFailure> failure = driver.wait_ready(*agent, stop);
  if (!failure) failure = submit_run(server.control(), o, plan, lines, agent_id, run_id);
  if (!failure) {
    out << fmt::format("run {} starts: plan '{}', {} iterations\n", run_id, printable(plan.name()),
                       slots)
        << std::flush;
    failure = driver.wait(*agent, deadline, stop, [&] { abort_run(server.control(), run_id); });
  }
  server.close_sessions();
  const int agent_status = agent->stop(5s);
  if (failure) return report_failure(*failure, driver, store, run_id, o, out);
  if (!WIFEXITED(agent_status) || WEXITSTATUS(agent_status) != 0) {
    spdlog::warn("schedrig-agent {} after the run", describe_status(agent_status));
  }
  const bool gate_passed = !o.summary || print_summary(store, run_id, o, out);
  return driver.finished()->status() == v1::STATUS_OK && gate_passed ? kExitOk : kExitFailed;
}

}  // namespace schedrig::lab
