// One `schedrig lab` run as the collector sees it: greets the first agent that
// says Hello (the lab's own; its token now travels on the upgrade, where the
// collector is to check it - issue #12), sends it the StartRun, prints a
// progress line per stored IterationResult, and waits for the run's end
// (docs/architecture.md "Wire protocol", "Command lines").
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>

#include "common/error.h"
#include "host/collector/agent_channel.h"
#include "host/collector/events.h"
#include "host/lab/agent_process.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::lab {

// Why a lab run ended without a RunFinished, and what kind of failure that
// is (common/error.h gives its exit code).
struct LabFailure {
  std::string reason;  // one line, e.g. "schedrig-agent did not connect within 30 s"
  ErrorKind kind = ErrorKind::kFailed;
};

// The ErrorKind of the agent's Error answer to the run: kUsage for a plan it
// refused, kUnreachable for a facility it lacks, else kFailed.
ErrorKind kind_of_agent_error(v1::ErrorCode code);

// Watches one run through the collector's events. Thread-safe: the
// collector's threads call the events, the lab's thread waits.
class LabDriver : public collector::CollectorEvents {
 public:
  // The run `run_id` of the agent `agent_id`; `planned` is the number of
  // schedule slots (progress lines "[i/planned]"); the agent must connect
  // within `connect_timeout`.
  LabDriver(std::string run_id, std::string agent_id, std::ostream& out, std::size_t planned,
            std::chrono::milliseconds connect_timeout);

  void on_hello(const std::shared_ptr<collector::AgentChannel>& channel,
                const v1::Envelope& env) override;
  void on_stored(const v1::Envelope& env) override;
  void on_closed(const collector::AgentChannel& channel, const std::string& agent_id,
                 const std::string& reason) override;

  // Waits until the agent has said Hello and sent its Topology (so a plan
  // can be checked against it), or a failure: it died, it did not connect in
  // time, or `stop` was set.
  std::optional<LabFailure> wait_ready(AgentProcess& agent, const std::atomic<bool>& stop);

  // Waits until the run ends, the agent dies, or `deadline` (moved on by
  // every wait the agent reports with a `waiting` Log: the run lock, the
  // knob lock; each such Log is printed); calls `abort`
  // once when `stop` is set (SIGINT/SIGTERM, common/stop_signal.h), then
  // gives the agent at most 30 s more. nullopt when RunFinished arrived.
  std::optional<LabFailure> wait(AgentProcess& agent,
                                 std::chrono::steady_clock::time_point deadline,
                                 const std::atomic<bool>& stop, const std::function<void()>& abort);

  // The kind of the Error the agent answered the run with, if it did.
  std::optional<ErrorKind> agent_error_kind() const;

  std::optional<v1::RunFinished> finished() const;

 private:
  // One check of the waiting loops: a failure, or nullopt to keep waiting.
  std::optional<LabFailure> check(AgentProcess& agent,
                                  std::chrono::steady_clock::time_point deadline);
  void print_progress(const v1::IterationResult& r);
  // A Log of the run: printed; a `waiting` one starts a wait the deadline
  // does not count, which the next Log or result of the run ends.
  void note_log(const v1::Log& log);
  void end_wait();

  std::string run_id_, agent_id_;
  std::ostream& out_;
  std::size_t planned_;
  std::size_t done_ = 0;
  std::chrono::milliseconds connect_timeout_;
  std::chrono::steady_clock::time_point connect_deadline_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  const collector::AgentChannel* own_ = nullptr;  // identity only
  std::string instance_id_;                       // of the agent's Hello
  bool has_topology_ = false;
  bool abort_sent_ = false;
  std::optional<v1::RunFinished> finished_;
  std::optional<LabFailure> failure_;
  std::optional<ErrorKind> agent_error_kind_;
  std::optional<std::chrono::steady_clock::time_point> waiting_since_;
  std::chrono::steady_clock::duration waited_{0};  // reported waits that ended
};

}  // namespace schedrig::lab
