// The control plane of `schedrig serve` and `schedrig lab`
// (docs/architecture.md "Control plane"): the collector's events drive the
// queue's dispatcher, and the HTTP API (/api/v1/...) submits, lists, aborts
// and follows runs. Runs are queued in the store, per agent in FIFO order,
// one at a time per agent.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "host/collector/events.h"
#include "host/control/dispatcher.h"
#include "host/control/runs_request.h"
#include "host/metrics/server_metrics.h"
#include "host/server/api_handler.h"
#include "host/store/agent_state_queries.h"
#include "host/store/store.h"

namespace schedrig::control {

struct ControlOptions {
  std::chrono::milliseconds poll_interval{150};  // events long poll: store reads
  std::chrono::seconds default_wait{25};         // events ?wait_s default
  std::chrono::seconds max_wait{60};             // and its largest value
  // `lab`: the store may be a serve's too, so its queue is left alone: no
  // dispatched run is touched at start, no run is interrupted by the
  // timeout, and only runs submitted through this Control are started.
  bool shared_store = false;
  // A run "disconnected" this long becomes "interrupted" (serve
  // --interrupt-after); checked every sweep_interval.
  std::chrono::seconds interrupt_after{3600};
  std::chrono::milliseconds sweep_interval{10000};
  // serve's metrics: GET /metrics answers with them; null: 404.
  const metrics::ServerMetrics* metrics = nullptr;
};

// One queued run, as POST /api/v1/runs answers.
struct SubmittedRun {
  std::string run_id, agent_id;
  int queue_position = 0;  // runs of the agent ahead of it; 0 = it runs next (or now)
};

class Control : public collector::CollectorEvents, public server::ApiHandler {
 public:
  // Marks every run the queue had dispatched "disconnected" ("serve
  // restarted": each resumes when its agent's instance says Hello again)
  // and keeps the queued ones, and every sweep_interval interrupts the runs
  // disconnected longer than interrupt_after (neither with
  // options.shared_store). Long polls' and the sweep's
  // timers run on `executor`. `store` must be a file (the events reader opens
  // it a second time, read-only). Throws StoreError. Stop the executor before
  // destroying the Control: pending long polls refer to it.
  Control(store::Store& store, boost::asio::any_io_executor executor, ControlOptions options = {});
  ~Control() override;
  Control(const Control&) = delete;
  Control& operator=(const Control&) = delete;

  void on_hello(const std::shared_ptr<collector::AgentChannel>& channel,
                const v1::Envelope& env) override;
  void on_stored(const v1::Envelope& env) override;
  void on_closed(const collector::AgentChannel& channel, const std::string& agent_id,
                 const std::string& reason) override;

  // The server stops (SIGINT/SIGTERM): the runs in progress become
  // "disconnected" with `reason` and none starts (Dispatcher::stopping).
  // Call before closing the agents.
  void stopping(const std::string& reason) { dispatcher_.stopping(reason); }

  // The HTTP API; answers {"error": ...} with 400/404/405/409/500 on failure.
  void handle(server::ApiRequest request, std::function<void(server::ApiResponse)> done) override;

  // Queues one run of the submission's plan per target agent, each checked
  // first against the agent's Hello and Topology (live, else as stored), then
  // starts what can start. Nothing is queued unless every target passes.
  // Throws ApiError: 400 a plan error ({error, file, line, key, value}) or
  // `all` with no agent connected; 404 an unknown agent; 409 an agent whose
  // topology is not known yet.
  std::vector<SubmittedRun> submit(const Submission& submission, const std::string& submitted_by);

  // POST runs/ID/abort for `run_id` (exact) by `by`, who the reasons name
  // ("operator 'alice'", lab's "a stop signal to lab"). Throws ApiError 404/409.
  AbortOutcome abort(const std::string& run_id, const std::string& by);

 private:
  struct Target {
    std::string agent_id;
    v1::Hello hello;
    v1::Topology topology;
  };
  // The submission's agents with what the plan check needs. Throws ApiError.
  std::vector<Target> targets(const Submission& submission) const;
  Target target(const std::string& agent_id) const;

  // Arms the next interrupt sweep.
  void schedule_sweep();

  server::ApiResponse route(const server::ApiRequest& request,
                            std::function<void(server::ApiResponse)>& done);
  server::ApiResponse get_agents() const;
  server::ApiResponse get_agent_knobs(const std::string& agent_id) const;
  server::ApiResponse post_runs(const server::ApiRequest& request);
  server::ApiResponse get_runs(const std::string& state) const;
  // GET /api/v1/runs/ID[?histograms=1]: the run as results_json writes it,
  // with each iteration's latency histograms when asked.
  server::ApiResponse get_run(const std::string& id, bool histograms) const;
  // GET /metrics: the Prometheus text exposition (ControlOptions::metrics).
  server::ApiResponse get_metrics() const;
  // POST /api/v1/nightly: a night's summary, kept for /metrics.
  server::ApiResponse post_nightly(const server::ApiRequest& r);
  // `operator_name`: the token principal's name.
  server::ApiResponse post_abort(const std::string& id, const std::string& operator_name);
  // POST /api/v1/agents/ID/boot {"kernel": NAME, "reason": TEXT}: 202 with
  // the BootOutcome (docs/architecture.md "HTTP API").
  server::ApiResponse post_boot(const std::string& agent_id, const server::ApiRequest& r);
  // Starts the long poll; takes `done` only once nothing can throw.
  void get_events(const std::string& id, long long after, std::chrono::seconds wait,
                  std::function<void(server::ApiResponse)>& done);
  // The one run `id` names (exact, or a unique prefix of >= 8 chars) among
  // the queue and the runs table. Throws ApiError 400/404/409.
  std::string resolve_run_id(const std::string& id) const;
  // The run's state for the events poll: its queue row's (with "aborting"),
  // else its runs row's status, else "".
  std::string run_state(const std::string& run_id) const;
  // The queue's queued and running rows, FIFO order.
  std::vector<store::QueuedRun> active_rows() const;

  store::Store& store_;
  boost::asio::any_io_executor executor_;
  ControlOptions options_;
  store::StateReader reader_;
  Dispatcher dispatcher_;
  boost::asio::steady_timer sweep_;  // Dispatcher::interrupt_stale every sweep_interval
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);  // the sweep's handler checks it
};

}  // namespace schedrig::control
