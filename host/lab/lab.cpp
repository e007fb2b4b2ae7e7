#include "host/lab/lab.h"

#include <sys/wait.h>

#include <memory>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/cli_error.h"
#include "common/ids.h"
#include "common/plan/plan_yaml.h"
#include "common/plan/schedule.h"
#include "common/stop_signal.h"
#include "host/compare/compare_table.h"
#include "host/lab/agent_process.h"
#include "host/lab/default_plan.h"
#include "host/lab/lab_driver.h"
#include "host/lab/loopback_collector.h"
#include "host/report/compare_text.h"
#include "host/report/report.h"
#include "host/store/default_db_path.h"

namespace schedrig::lab {
namespace {

using namespace std::chrono_literals;
namespace v1 = schedrig::v1;

// When to give up on the run: twice its planned length plus a minute, in
// double seconds so a long plan cannot overflow, capped at ten years.
std::chrono::steady_clock::time_point run_deadline(const v1::Plan& plan, std::size_t slots) {
  const double planned_s =
      static_cast<double>(plan.duration_ns() + plan.warmup_ns() + plan.cooldown_ns()) / 1e9 *
      static_cast<double>(slots);
  const double allowed_s = std::min(2 * planned_s + 60, 10 * 365 * 86400.0);
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(allowed_s));
}

v1::StartRun make_start(const LabOptions& o, v1::Plan plan) {
  v1::StartRun start;
  start.set_run_id(make_uuid_v4());
  *start.mutable_plan() = std::move(plan);
  for (const auto& [k, v] : o.labels) (*start.mutable_labels())[k] = v;
  return start;
}

void print_summary(store::Store& store, const std::string& run_id, std::ostream& out) {
  auto runs = store.runs(run_id);
  if (runs.empty()) return;
  out << "\n";
  report::print_run_detail(runs.front(), out);
  out << fmt::format("\nstored in {}\nsee: schedrig results {} --db {}\n", store.path(),
                     run_id.substr(0, 8), store.path());
  // The run's own comparison: every variant against the baseline variant.
  out << fmt::format("     schedrig compare {} --db {}\n\n", run_id.substr(0, 8), store.path());
  try {
    report::print_compare_table(compare::compare_variants(runs.front()), out);
  } catch (const compare::CompareError& e) {
    out << "compare: " << e.what() << "\n";
  }
  // What the sampler saw per variant, and the quiet-box waits (issue #6).
  report::print_sample_summary(runs.front(), out);
}

// The plan to run; CliError (exit 2) when it cannot be read.
v1::Plan checked_plan(const LabOptions& o) {
  try {
    return lab_plan(o);
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

// `schedrig-agent connect URL --token TOKEN`; CliError (exit 3) when it
// cannot be started.
std::unique_ptr<AgentProcess> start_agent(const std::string& path, const LabOptions& o,
                                          const std::string& url, const std::string& token) {
  try {
    return std::make_unique<AgentProcess>(
        path, std::vector<std::string>{"--log-level", o.agent_log_level, "connect", url, "--token",
                                       token});
  } catch (const std::runtime_error& e) {
    throw CliError(ErrorKind::kUnreachable, e.what());
  }
}

// After a failed run: says why, marks the run failed, shows what was stored,
// and returns the exit code of the failure's kind (the agent's own Error
// answer, when it sent one, decides).
int report_failure(const LabFailure& failure, const LabDriver& driver, store::Store& store,
                   const std::string& run_id, std::ostream& out) {
  out << "lab: " << failure.reason << "\n";
  store.fail_unfinished_run(run_id, "lab: " + failure.reason);
  print_summary(store, run_id, out);
  return exit_code_for(driver.agent_error_kind().value_or(failure.kind));
}

}  // namespace

v1::Plan lab_plan(const LabOptions& o) {
  v1::Plan plan = o.plan_file.empty()
                      ? parse_plan_yaml(default_plan_yaml(), "<built-in plans/default.yaml>")
                      : load_plan_file(o.plan_file);
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
  v1::Plan plan = checked_plan(o);
  const std::size_t slots = make_schedule(plan).size();
  const std::string agent_path = checked_agent_path(o);
  store::Store store(o.db_path.empty() ? store::default_db_path() : o.db_path);
  v1::StartRun start = make_start(o, std::move(plan));
  const std::string run_id = start.run_id();
  const auto deadline = run_deadline(start.plan(), slots);
  const std::string token = make_uuid_v4();
  LabDriver driver(std::move(start), token, out, slots, o.connect_timeout);
  const std::atomic<bool>& stop = install_stop_signals();

  LoopbackCollector collector(store, driver, lab_agent_id(), token);
  out << fmt::format("collector on {}; results go to {}\n", collector.url(), store.path())
      << std::flush;
  std::unique_ptr<AgentProcess> agent = start_agent(agent_path, o, collector.url(), token);
  const std::optional<LabFailure> failure = driver.wait(*agent, deadline, stop);
  collector.close_sessions();
  const int agent_status = agent->stop(5s);
  if (failure) return report_failure(*failure, driver, store, run_id, out);
  if (!WIFEXITED(agent_status) || WEXITSTATUS(agent_status) != 0) {
    spdlog::warn("schedrig-agent {} after the run", describe_status(agent_status));
  }
  print_summary(store, run_id, out);
  return driver.finished()->status() == v1::STATUS_OK ? kExitOk : kExitFailed;
}

}  // namespace schedrig::lab
