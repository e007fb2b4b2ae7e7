#include "host/lab/lab_driver.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/printable.h"
#include "common/progress_line.h"
#include "common/wait_status.h"

namespace schedrig::lab {

using namespace std::chrono_literals;

ErrorKind kind_of_agent_error(v1::ErrorCode code) {
  switch (code) {
    case v1::ERROR_BAD_PLAN:
      return ErrorKind::kUsage;
    case v1::ERROR_FACILITY_UNAVAILABLE:
      return ErrorKind::kUnreachable;
    default:
      return ErrorKind::kFailed;
  }
}

LabDriver::LabDriver(std::string run_id, std::string agent_id, std::ostream& out,
                     std::size_t planned, std::chrono::milliseconds connect_timeout)
    : run_id_(std::move(run_id)),
      agent_id_(std::move(agent_id)),
      out_(out),
      planned_(planned),
      connect_timeout_(connect_timeout),
      connect_deadline_(std::chrono::steady_clock::now() + connect_timeout) {}

void LabDriver::on_hello(const std::shared_ptr<collector::AgentChannel>& channel,
                         const v1::Envelope& env) {
  std::lock_guard lock(mu_);
  // Only the lab's token can speak for agent_id_; the first Hello is the agent it started.
  if (own_ || env.agent_id() != agent_id_) return;
  own_ = channel.get();
  instance_id_ = env.instance_id();
  out_ << fmt::format("agent {} ({}, {}, {} PUs) connected\n", printable(env.agent_id()),
                      printable(env.hello().hostname()), printable(env.hello().kernel_release()),
                      env.hello().allowed_pus())
       << std::flush;
}

void LabDriver::on_stored(const v1::Envelope& env) {
  std::lock_guard lock(mu_);
  if (env.agent_id() != agent_id_) return;
  if (env.has_topology() && env.instance_id() == instance_id_) {
    has_topology_ = true;
    cv_.notify_all();
  } else if (env.has_log() && env.log().run_id() == run_id_) {
    note_log(env.log());
  } else if (env.has_iteration_result() && env.iteration_result().run_id() == run_id_) {
    end_wait();
    print_progress(env.iteration_result());
  } else if (env.has_run_finished() && env.run_finished().run_id() == run_id_) {
    finished_ = env.run_finished();
    cv_.notify_all();
  } else if (env.has_error() && env.error().run_id() == run_id_) {
    agent_error_kind_ = kind_of_agent_error(env.error().code());
    failure_ =
        LabFailure{"the agent rejected the run: " + env.error().message(), *agent_error_kind_};
    cv_.notify_all();
  }
}

void LabDriver::note_log(const v1::Log& log) {
  out_ << "agent: " << printable(log.message()) << "\n" << std::flush;
  end_wait();
  if (log.waiting()) waiting_since_ = std::chrono::steady_clock::now();
}

void LabDriver::end_wait() {
  if (!waiting_since_) return;
  waited_ += std::chrono::steady_clock::now() - *waiting_since_;
  waiting_since_.reset();
}

void LabDriver::on_closed(const collector::AgentChannel& channel, const std::string& agent_id,
                          const std::string& reason) {
  std::lock_guard lock(mu_);
  if (&channel != own_) return;  // not the lab's agent
  if (!finished_ && !failure_) {
    failure_ =
        LabFailure{fmt::format("agent {} disconnected: {}", printable(agent_id), printable(reason)),
                   ErrorKind::kFailed};
  }
  cv_.notify_all();
}

std::optional<LabFailure> LabDriver::wait_ready(AgentProcess& agent,
                                                const std::atomic<bool>& stop) {
  const auto forever = std::chrono::steady_clock::time_point::max();
  std::unique_lock lock(mu_);
  while (!has_topology_ && !failure_) {
    cv_.wait_for(lock, 100ms);
    if (has_topology_ || failure_) break;
    if (auto failure = check(agent, forever)) return failure;
    if (stop.load()) return LabFailure{"interrupted before the run started", ErrorKind::kFailed};
  }
  return failure_;
}

std::optional<LabFailure> LabDriver::wait(AgentProcess& agent,
                                          std::chrono::steady_clock::time_point deadline,
                                          const std::atomic<bool>& stop,
                                          const std::function<void()>& abort) {
  std::unique_lock lock(mu_);
  while (!finished_ && !failure_) {
    cv_.wait_for(lock, 100ms);
    if (finished_ || failure_) break;
    if (auto failure = check(agent, deadline)) return failure;
    if (stop.load() && !abort_sent_) {
      abort_sent_ = true;
      deadline = std::min(deadline, std::chrono::steady_clock::now() + 30s);
      out_ << "interrupted: asking the agent to abort the run\n" << std::flush;
      lock.unlock();  // the abort's own events take mu_
      abort();
      lock.lock();
    }
  }
  return failure_;
}

std::optional<LabFailure> LabDriver::check(AgentProcess& agent,
                                           std::chrono::steady_clock::time_point deadline) {
  if (auto st = agent.poll()) {
    return LabFailure{
        fmt::format("schedrig-agent {} before the run finished", describe_status(*st)),
        ErrorKind::kFailed};
  }
  const auto now = std::chrono::steady_clock::now();
  if (!has_topology_ && now > connect_deadline_) {
    return LabFailure{fmt::format("schedrig-agent did not connect within {:g} s",
                                  std::chrono::duration<double>(connect_timeout_).count()),
                      ErrorKind::kUnreachable};
  }
  const auto waiting = waiting_since_ ? now - *waiting_since_ : std::chrono::nanoseconds(0);
  if (now > deadline + waited_ + waiting) {
    return LabFailure{"the run did not finish in time", ErrorKind::kFailed};
  }
  return std::nullopt;
}

std::optional<ErrorKind> LabDriver::agent_error_kind() const {
  std::lock_guard lock(mu_);
  return agent_error_kind_;
}

std::optional<v1::RunFinished> LabDriver::finished() const {
  std::lock_guard lock(mu_);
  return finished_;
}

void LabDriver::print_progress(const v1::IterationResult& r) {
  out_ << progress_line(++done_, planned_, r) << "\n" << std::flush;
}

}  // namespace schedrig::lab
