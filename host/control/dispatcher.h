// The queue's dispatcher (docs/architecture.md "Control plane", "Queue"):
// per agent, the oldest queued run starts when the agent is connected and
// idle, one run at a time. It reacts to a Hello, a run's end (RunFinished,
// or the agent's Error for it), a submit, a close and an abort. A run
// outlives its agent's link: "disconnected" while it is down, "running"
// again on the same instance's Hello, "interrupted" on another instance's
// Hello or after interrupt_stale's timeout.
// Thread-safe: events come from session strands and the store writer, calls
// from API handlers. One mutex guards the live agents; a second serializes
// the queue's read-then-write steps (dispatch, abort). Store I/O is done
// without the agents' mutex held.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "host/collector/agent_channel.h"
#include "host/control/live_agents.h"
#include "host/store/store.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::control {

// What an abort did: "aborted" (a queued run, removed; or an interrupted one,
// whose agent is gone as that instance) or "aborting" (Abort sent, or noted
// for a disconnected run to go out on its agent's next Hello; the agent's
// RunFinished ends it).
struct AbortOutcome {
  std::string state;
};

// What a boot request did: the Boot went to the agent, which ran
// `boot_id` (instance `instance_id`) when it was sent; it comes back with
// another boot_id, running `release` if the boot took.
struct BootOutcome {
  std::string kernel, release, hook, boot_id, instance_id;
};

class Dispatcher {
 public:
  // With `own_runs_only` (lab, whose store may hold a serve's queue) only
  // runs announced with submitted() are started; other queued rows stay.
  Dispatcher(store::Store& store, bool own_runs_only);

  // Run `run_id` was queued through this dispatcher's owner.
  void submitted(const std::string& run_id);

  // An agent said Hello on `channel`: it is live. Its run dispatched to the
  // same instance (running, disconnected, interrupted) is its run again:
  // "running", the StartRun sent again when no RunStarted is stored, the
  // Abort again when the row has an abort note. A run dispatched to another
  // instance of it becomes "interrupted" ("agent A restarted (instance X
  // replaced Y)"). When idle, its queue starts.
  void hello(const std::shared_ptr<collector::AgentChannel>& channel, const v1::Envelope& env);
  // A stored agent envelope: Topology and last-seen are noted; a RunFinished
  // or an Error naming the agent's run ends that run (an Error fails its queue
  // row: the agent rejected the plan) and the next one starts.
  void stored(const v1::Envelope& env);
  // `channel` closed: the agent is offline; a run it was running becomes
  // "disconnected" with "agent AGENT disconnected: REASON".
  void closed(const collector::AgentChannel& channel, const std::string& agent_id,
              const std::string& reason);
  // Starts `agent_id`'s oldest queued run if the agent is live and idle.
  void dispatch(const std::string& agent_id);
  // Aborts queue row `run` for `by` (who, as reasons name it: "operator
  // 'alice'"): a queued row ends "aborted by BY before it started"; an
  // interrupted one "aborted by BY"; a running or disconnected one is noted
  // "aborted by BY" (Store::note_abort, so its RunFinished's reason starts
  // with it) and its agent sent an Abort, now when live, else on its next
  // Hello. Throws ApiError 409 for a run that has finished.
  AbortOutcome abort(const store::QueuedRun& run, const std::string& by);

  // Sends `agent_id` a Boot for `kernel` (docs/nightly.md): the agent must
  // be live and idle with nothing queued, and list `kernel` in its Hello;
  // until it says Hello again no run starts on it. Throws ApiError 409 (not
  // connected, running a run, runs queued, a boot already sent) or 400 (a
  // kernel it does not list, naming those it does).
  BootOutcome boot(const std::string& agent_id, const std::string& kernel,
                   const std::string& reason);

  // The server is stopping: every run a live agent is running becomes
  // "disconnected" with `reason` ("serve stopped"; before the closes would
  // say "agent A disconnected") and no run starts from now on.
  void stopping(const std::string& reason);
  // Runs "disconnected" for `after` or longer become "interrupted" ("agent A
  // disconnected for more than S s").
  void interrupt_stale(std::chrono::seconds after);

  // A copy of the live agents (for the API), by agent_id.
  std::map<std::string, LiveAgent> live() const;
  // The live agent's Hello and Topology, if it is live and has sent both.
  bool live_state(const std::string& agent_id, v1::Hello& hello, v1::Topology& topology) const;
  // True when an Abort was sent for `run_id` and its RunFinished is awaited.
  bool aborting(const std::string& run_id) const;

 private:
  // The agent running `run_id` (env's agent) is idle again; its next run starts.
  void run_ended(const std::string& agent_id, const std::string& run_id);
  // Takes back, on a Hello, the runs dispatched to the agent (hello());
  // queue_mu_ held.
  void take_back_runs(const std::shared_ptr<collector::AgentChannel>& channel,
                      const v1::Envelope& env);
  // `row` (dispatched to the instance on `channel`) is that agent's run
  // again; false when the channel is no longer the agent's.
  bool resume(const std::shared_ptr<collector::AgentChannel>& channel, const store::QueuedRun& row);
  // A running row -> "disconnected" with `reason`.
  void disconnect_run(const std::string& run_id, const std::string& reason);
  // Fails queue row and run `run_id` with `reason` unless it has finished.
  void fail_run(const std::string& run_id, const std::string& reason);
  // The oldest queued run of `agent_id` this dispatcher may start.
  std::optional<store::QueuedRun> next_run(const std::string& agent_id);
  // An Abort for `run_id` saying `note`.
  static v1::Envelope abort_for(const std::string& run_id, const std::string& note);
  // A StartRun for queue row `run`.
  static v1::Envelope start_run(const store::QueuedRun& run);

  store::Store& store_;
  mutable std::mutex mu_;  // live agents
  std::mutex queue_mu_;    // dispatch and abort: read a queue row, then change it
  LiveAgents agents_;
  bool own_runs_only_;
  bool stopping_ = false;           // guarded by queue_mu_
  std::set<std::string> own_runs_;  // guarded by queue_mu_
};

}  // namespace schedrig::control
