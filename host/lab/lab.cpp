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
#include "host/collector/collector.h"
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
  LabDriver(v1::StartRun start, std::ostream& out, std::size_t planned)
      : start_(std::move(start)), out_(out), planned_(planned) {}

  void on_hello(const std::shared_ptr<collector::AgentSession>& session,
                const v1::Envelope& env) override {
    std::lock_guard lock(mu_);
    if (connected_) return;
    connected_ = true;
    session_ = session;
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
      rejected_ = env.error().code() == v1::ERROR_BAD_PLAN;
      cv_.notify_all();
    }
  }

  void on_closed(const std::string& agent_id, const std::string& reason) override {
    std::lock_guard lock(mu_);
    if (!finished_ && error_.empty() && connected_)
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

  // True when the agent refused the plan (bad input: exit 2).
  bool rejected() const {
    std::lock_guard lock(mu_);
    return rejected_;
  }

  std::optional<v1::RunFinished> finished() const {
    std::lock_guard lock(mu_);
    return finished_;
  }

 private:
  void print_progress(const v1::IterationResult& r) {
    ++done_;
    std::string value =
        r.status() == v1::STATUS_OK && r.metrics_size()
            ? fmt::format("{} {}", report::format_number(r.metrics(0).value()), r.metrics(0).unit())
            : "FAILED: " + r.reason();
    out_ << fmt::format("[{:>{}}/{}] {} / {} / iteration {}: {}\n", done_,
                        std::to_string(planned_).size(), planned_, r.case_name(), r.variant(),
                        r.iteration(), value)
         << std::flush;
  }

  v1::StartRun start_;
  std::ostream& out_;
  std::size_t planned_;
  std::size_t done_ = 0;
  std::chrono::steady_clock::time_point connect_deadline_ = std::chrono::steady_clock::now() + 30s;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::weak_ptr<collector::AgentSession> session_;  // the ioc owns sessions
  bool connected_ = false;
  std::optional<v1::RunFinished> finished_;
  std::string error_;
  bool rejected_ = false;
};

std::chrono::nanoseconds expected_duration(const v1::Plan& plan, std::size_t slots) {
  return std::chrono::nanoseconds((plan.duration_ns() + plan.warmup_ns() + plan.cooldown_ns()) *
                                  slots);
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
  }
  return plan;
}

std::string default_state_dir() {
  fs::path dir;
  if (::geteuid() == 0) {
    dir = "/var/lib/schedrig";
  } else if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg) {
    dir = fs::path(xdg) / "schedrig";
  } else {
    const char* home = std::getenv("HOME");
    dir = fs::path(home ? home : ".") / ".local/state/schedrig";
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw CliError(kExitUsage,
                   fmt::format("cannot create state dir {}: {}", dir.string(), ec.message()));
  return dir;
}

std::string default_db_path() { return (fs::path(default_state_dir()) / "schedrig.db").string(); }

int run_lab(const LabOptions& o, std::ostream& out) {
  v1::Plan plan;
  try {
    plan = lab_plan(o);
  } catch (const PlanError& e) {
    throw CliError(kExitUsage, e.what());
  }
  const std::size_t slots = make_schedule(plan).size();
  std::string agent_path;
  try {
    agent_path = find_agent_binary(o.agent);
  } catch (const std::runtime_error& e) {
    throw CliError(kExitUsage, e.what());
  }
  store::Store store(o.db_path.empty() ? default_db_path() : o.db_path);
  v1::StartRun start = make_start(o, std::move(plan));
  const std::string run_id = start.run_id();
  const auto deadline =
      std::chrono::steady_clock::now() + expected_duration(start.plan(), slots) * 2 + 60s;
  LabDriver driver(std::move(start), out, slots);
  install_interrupt_handler();

  LoopbackCollector collector(store, driver);
  out << fmt::format("collector on {}; results go to {}\n", collector.url(), store.path())
      << std::flush;
  std::unique_ptr<AgentProcess> agent;
  try {
    agent = std::make_unique<AgentProcess>(
        agent_path,
        std::vector<std::string>{"--log-level", o.agent_log_level, "connect", collector.url()});
  } catch (const std::runtime_error& e) {
    throw CliError(kExitUnreachable, e.what());
  }
  const std::string failure = driver.wait(*agent, deadline);
  collector.close_sessions();
  const int agent_status = agent->stop(5s);
  if (!failure.empty()) {
    out << "lab: " << failure << "\n";
    print_summary(store, run_id, out);
    if (driver.rejected()) return kExitUsage;
    return failure.find("did not connect") != std::string::npos ? kExitUnreachable : kExitFailed;
  }
  if (!WIFEXITED(agent_status) || WEXITSTATUS(agent_status) != 0) {
    spdlog::warn("schedrig-agent {} after the run", describe_status(agent_status));
  }
  print_summary(store, run_id, out);
  return driver.finished()->status() == v1::STATUS_OK ? kExitOk : kExitFailed;
}

}  // namespace schedrig::lab
