#include "host/lab/lab.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>

#include "common/cli_error.h"
#include "common/ids.h"
#include "common/plan/plan_yaml.h"
#include "common/plan/schedule.h"
#include "common/progress_line.h"
#include "common/state_dir.h"
#include "host/collector/collector.h"
#include "host/compare/compare_table.h"
#include "host/compare/compare_text.h"
#include "host/lab/agent_process.h"
#include "host/lab/default_plan.h"
#include "host/report/report.h"

namespace schedrig::lab {
namespace {

using namespace std::chrono_literals;
namespace v1 = schedrig::v1;
namespace fs = std::filesystem;

std::atomic<bool> g_interrupted{false};

void on_interrupt(int) { g_interrupted.store(true); }

void install_interrupt_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// Drives one run through the collector's events.
class LabDriver : public collector::CollectorEvents {
 public:
  LabDriver(v1::StartRun start, std::string token, std::ostream& out, std::size_t planned)
      : start_(std::move(start)), token_(std::move(token)), out_(out), planned_(planned) {}

  void on_hello(const std::shared_ptr<collector::AgentSession>& session,
                const v1::Envelope& env) override {
    std::lock_guard lock(mu_);
    if (connected_ || env.hello().token() != token_) {
      spdlog::warn("{}: ignoring agent {}: not the agent this lab started", session->peer(),
                   env.agent_id());
      session->close();
      return;
    }
    connected_ = true;
    session_ = session;
    own_ = session.get();
    out_ << fmt::format(
                "agent {} ({}, {}, {} PUs) connected; run {} starts: plan '{}', {} iterations\n",
                env.agent_id(), env.hello().hostname(), env.hello().kernel_release(),
                env.hello().allowed_pus(), start_.run_id(), start_.plan().name(), planned_)
         << std::flush;
    v1::Envelope cmd;
    *cmd.mutable_start_run() = start_;
    session->send(std::move(cmd));
  }

  void on_stored(const v1::Envelope& env) override {
    std::lock_guard lock(mu_);
    if (env.has_iteration_result() && env.iteration_result().run_id() == start_.run_id()) {
      print_progress(env.iteration_result());
    } else if (env.has_run_finished() && env.run_finished().run_id() == start_.run_id()) {
      finished_ = env.run_finished();
      cv_.notify_all();
    } else if (env.has_error() && env.error().run_id() == start_.run_id()) {
      error_ = "the agent rejected the run: " + env.error().message();
      error_code_ = env.error().code();
      cv_.notify_all();
    }
  }

  void on_closed(const collector::AgentSession& session, const std::string& agent_id,
                 const std::string& reason) override {
    std::lock_guard lock(mu_);
    if (&session != own_) return;  // another client of the port: not our run
    if (!finished_ && error_.empty())
      error_ = fmt::format("agent {} disconnected: {}", agent_id, reason);
    cv_.notify_all();
  }

  // Waits until the run ends, the agent dies, or `deadline`; sends Abort on
  // SIGINT. Returns "" when RunFinished arrived, else the reason.
  std::string wait(AgentProcess& agent, std::chrono::steady_clock::time_point deadline) {
    bool abort_sent = false;
    std::unique_lock lock(mu_);
    while (!finished_ && error_.empty()) {
      cv_.wait_for(lock, 100ms);
      if (finished_ || !error_.empty()) break;
      if (auto st = agent.poll())
        return fmt::format("schedrig-agent {} before the run finished", describe_status(*st));
      if (!connected_ && std::chrono::steady_clock::now() > connect_deadline_)
        return "schedrig-agent did not connect within 30 s";
      if (std::chrono::steady_clock::now() > deadline) return "the run did not finish in time";
      auto session = session_.lock();
      if (g_interrupted.load() && session && !abort_sent) {
        abort_sent = true;
        deadline = std::min(deadline, std::chrono::steady_clock::now() + 30s);
        out_ << "interrupted: asking the agent to abort the run\n" << std::flush;
        v1::Envelope abort;
        abort.mutable_abort()->set_run_id(start_.run_id());
        abort.mutable_abort()->set_reason("interrupted by the user (SIGINT)");
        session->send(std::move(abort));
      }
    }
    return error_;
  }

  // The code of the Error the agent answered the run with, if any.
  v1::ErrorCode error_code() const {
    std::lock_guard lock(mu_);
    return error_code_;
  }

  std::optional<v1::RunFinished> finished() const {
    std::lock_guard lock(mu_);
    return finished_;
  }

 private:
  void print_progress(const v1::IterationResult& r) {
    out_ << progress_line(++done_, planned_, r) << "\n" << std::flush;
  }

  v1::StartRun start_;
  std::string token_;  // given to our agent; its Hello must echo it
  std::ostream& out_;
  std::size_t planned_;
  std::size_t done_ = 0;
  std::chrono::steady_clock::time_point connect_deadline_ = std::chrono::steady_clock::now() + 30s;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::weak_ptr<collector::AgentSession> session_;  // the ioc owns sessions
  const collector::AgentSession* own_ = nullptr;    // identity only
  bool connected_ = false;
  std::optional<v1::RunFinished> finished_;
  std::string error_;
  v1::ErrorCode error_code_ = v1::ERROR_UNSPECIFIED;
};

// When to give up on the run: twice its planned length plus a minute, in
// double seconds so a long plan cannot overflow, capped at ten years.
std::chrono::steady_clock::time_point run_deadline(const v1::Plan& plan, std::size_t slots) {
  const double planned_s = (plan.duration_ns() + plan.warmup_ns() + plan.cooldown_ns()) / 1e9 *
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

// Collector on loopback with its I/O thread; stopped on destruction.
class LoopbackCollector {
 public:
  LoopbackCollector(store::Store& store, collector::CollectorEvents& events)
      : collector_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}, store, events) {
    collector_.start();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~LoopbackCollector() {
    ioc_.stop();
    thread_.join();
  }
  // Stops accepting and sends every session a normal close.
  void close_sessions() { collector_.stop(); }
  std::string url() const {
    return fmt::format("ws://127.0.0.1:{}/agent", collector_.local_endpoint().port());
  }

 private:
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{
      ioc_.get_executor()};
  collector::Collector collector_;
  std::thread thread_;
};

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
    compare::print_compare_table(compare::compare_variants(runs.front()), out);
  } catch (const compare::CompareError& e) {
    out << "compare: " << e.what() << "\n";
  }
  // What the sampler saw per variant, and the quiet-box waits (issue #6).
  report::print_sample_summary(runs.front(), out);
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

std::string default_db_path() { return (fs::path(default_state_dir()) / "schedrig.db").string(); }

int run_lab(const LabOptions& o, std::ostream& out) {
  v1::Plan plan;
  try {
    plan = lab_plan(o);
  } catch (const PlanError& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  const std::size_t slots = make_schedule(plan).size();
  std::string agent_path;
  try {
    agent_path = find_agent_binary(o.agent);
  } catch (const std::runtime_error& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  store::Store store(o.db_path.empty() ? default_db_path() : o.db_path);
  v1::StartRun start = make_start(o, std::move(plan));
  const std::string run_id = start.run_id();
  const auto deadline = run_deadline(start.plan(), slots);
  const std::string token = make_uuid_v4();
  LabDriver driver(std::move(start), token, out, slots);
  install_interrupt_handler();

  LoopbackCollector collector(store, driver);
  out << fmt::format("collector on {}; results go to {}\n", collector.url(), store.path())
      << std::flush;
  std::unique_ptr<AgentProcess> agent;
  try {
    agent = std::make_unique<AgentProcess>(
        agent_path, std::vector<std::string>{"--log-level", o.agent_log_level, "connect",
                                             collector.url(), "--token", token});
  } catch (const std::runtime_error& e) {
    throw CliError(ErrorKind::kUnreachable, e.what());
  }
  const std::string failure = driver.wait(*agent, deadline);
  collector.close_sessions();
  const int agent_status = agent->stop(5s);
  if (!failure.empty()) {
    out << "lab: " << failure << "\n";
    store.fail_unfinished_run(run_id, "lab: " + failure);
    print_summary(store, run_id, out);
    if (driver.error_code() == v1::ERROR_BAD_PLAN) return kExitUsage;
    if (driver.error_code() == v1::ERROR_FACILITY_UNAVAILABLE) return kExitUnreachable;
    return failure.find("did not connect") != std::string::npos ? kExitUnreachable : kExitFailed;
  }
  if (!WIFEXITED(agent_status) || WEXITSTATUS(agent_status) != 0) {
    spdlog::warn("schedrig-agent {} after the run", describe_status(agent_status));
  }
  print_summary(store, run_id, out);
  return driver.finished()->status() == v1::STATUS_OK ? kExitOk : kExitFailed;
}

}  // namespace schedrig::lab
