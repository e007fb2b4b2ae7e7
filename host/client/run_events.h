// Following one run on the server (docs/architecture.md "HTTP API", GET
// /api/v1/runs/ID/events): long polls, each bringing what the agent sent
// since the last, until the run has ended.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "host/client/api_client.h"
#include "host/store/records.h"

namespace schedrig::client {

// The run_finished event's body.
struct RunEnd {
  std::string status;  // "ok" | "failed" | "aborted"; "interrupted" (the host's, not final)
  std::string reason;
  unsigned completed_iterations = 0;
  unsigned long long dropped_samples = 0;  // samples the agent's full spool dropped
};

// The run's queue state changed while it goes on: "disconnected" (its
// agent's link is down; `reason` says why) or "running" again (resumed).
struct RunStateEvent {
  std::string state, reason;
};

// An agent's error event for the run (a rejected plan, a failed facility).
struct RunErrorEvent {
  std::string code, message;
};

// The agent's line about the run: `waiting` when the run is held up (the
// knob lock another process holds) until its next event.
struct RunLogEvent {
  std::string level, message;
  bool waiting = false;
};

// The run_started event (its body is not needed: the plan came with GET runs/ID).
struct RunStartedEvent {};

using RunEvent = std::variant<RunStartedEvent, store::SampleRecord, store::IterationRecord, RunEnd,
                              RunErrorEvent, RunLogEvent, RunStateEvent>;

// One run's events, read in order. Iteration results whose body has no
// "position" get the count of results before them (the agent runs slots in
// schedule order). A run that ended without a run_finished event (the host
// failed it; or it was aborted before it started) ends with a RunEnd made
// from GET runs/ID: its status and reason. Following stops at
// "interrupted" too (a RunEnd with that status), though the run may still
// end later (the agent's report, a replay); "disconnected" is not an end:
// a RunStateEvent says it, and another the resume.
class RunFollower {
 public:
  RunFollower(ApiClient& client, std::string run_id)
      : client_(client), run_id_(std::move(run_id)) {}

  // One long poll of up to `wait_s` seconds: the events since the last poll,
  // in the server's order, the last a RunEnd once the run has ended. Errors
  // as ApiClient::get; a malformed answer is Error(kFailed). Events of an
  // unknown kind are skipped.
  std::vector<RunEvent> poll(unsigned wait_s);

  // True once run_finished came, or a poll found the run ended ("ok",
  // "failed", "aborted": an aborted queued run has no events) or
  // interrupted, and nothing new.
  bool ended() const { return ended_; }
  // The run's state as the last poll said it; the run_finished status once it came.
  const std::string& state() const { return state_; }
  // Why the run failed or was aborted, once ended(); "" when ok.
  const std::string& reason() const { return reason_; }
  // RunFinished.dropped_samples, once ended(); 0 when none were dropped.
  unsigned long long dropped_samples() const { return dropped_samples_; }
  const std::string& run_id() const { return run_id_; }

 private:
  std::optional<RunEvent> event_of(const nlohmann::json& e);  // nullopt: unknown kind
  RunEnd stored_end();  // the run's end as GET runs/ID tells it
  // A RunStateEvent when the state went to or from "disconnected".
  std::optional<RunStateEvent> state_change(const std::string& before);

  ApiClient& client_;
  std::string run_id_;
  long long after_ = 0;
  unsigned results_ = 0;
  std::string state_, reason_;
  unsigned long long dropped_samples_ = 0;
  bool ended_ = false;
};

// One poll of `follower` (up to `wait_s` seconds) that rides out a server
// restart or outage (server_outage.h, its lines on `log`).
std::vector<RunEvent> poll_riding_outage(RunFollower& follower, unsigned wait_s, std::ostream& log);

// Follows `follower` to the run's end with poll_riding_outage, handing each
// event to `on_event` in order. Errors as ApiClient::get once the outage
// policy gives up; Error(kInterrupted) on Ctrl-C when the client stops on
// signals.
void follow_to_end(RunFollower& follower, unsigned wait_s, std::ostream& log,
                   const std::function<void(const RunEvent&)>& on_event);

// Whether `state` is one a run does not leave.
bool run_state_ended(const std::string& state);
// Whether a follower stops at `state`: an ended one, or "interrupted".
bool run_state_stops_following(const std::string& state);

// The line `watch` and `run --wait` print for `change` of run `run_id`:
// "run R disconnected: REASON; waiting for its agent" or "run R running
// again: its agent is back", or, when it ended while disconnected, "run R
// interrupted: its agent did not come back in time".
std::string run_state_line(const std::string& run_id, const RunStateEvent& change);

}  // namespace schedrig::client
