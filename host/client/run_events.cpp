#include "host/client/run_events.h"

#include <algorithm>

#include <fmt/format.h>

#include "host/client/api_paths.h"
#include "host/client/json_read.h"
#include "host/client/remote_runs.h"
#include "host/client/run_record_json.h"
#include "host/client/server_outage.h"

namespace schedrig::client {

std::vector<RunEvent> poll_riding_outage(RunFollower& follower, unsigned wait_s,
                                         std::ostream& log) {
  std::vector<RunEvent> events;
  ride_server_outage([&] { events = follower.poll(wait_s); }, log);
  return events;
}

void follow_to_end(RunFollower& follower, unsigned wait_s, std::ostream& log,
                   const std::function<void(const RunEvent&)>& on_event) {
  while (!follower.ended()) {
    for (const RunEvent& event : poll_riding_outage(follower, wait_s, log)) on_event(event);
  }
}

bool run_state_ended(const std::string& state) {
  return state == "ok" || state == "failed" || state == "aborted";
}

bool run_state_stops_following(const std::string& state) {
  return run_state_ended(state) || state == "interrupted";
}

std::string run_state_line(const std::string& run_id, const RunStateEvent& change) {
  if (change.state == "running" || change.state == "queued")
    return fmt::format("run {} {} again: its agent is back", run_id, change.state);
  if (change.state != "disconnected")  // it left "disconnected" by ending (serve gave up on it)
    return fmt::format("run {} {}: its agent did not come back in time", run_id, change.state);
  return fmt::format("run {} disconnected{}; waiting for its agent", run_id,
                     change.reason.empty() ? "" : ": " + change.reason);
}

std::optional<RunEvent> RunFollower::event_of(const nlohmann::json& e) {
  const std::string kind = e.at("kind").get<std::string>();
  const nlohmann::json& body = e.at("body");
  if (kind == "sample") return sample_from_json(body, run_id_);
  if (kind == "iteration_result") {
    store::IterationRecord it = iteration_from_json(body);
    if (!body.contains("position")) it.position = results_;
    ++results_;
    return it;
  }
  if (kind == "run_finished") {
    return RunEnd{body.at("status").get<std::string>(), body.value("reason", ""),
                  body.value("completed_iterations", 0u), body.value("dropped_samples", 0ull)};
  }
  if (kind == "error") return RunErrorEvent{body.value("code", ""), body.value("message", "")};
  if (kind == "log") {
    return RunLogEvent{body.value("level", ""), body.value("message", ""),
                       body.value("waiting", false)};
  }
  if (kind == "run_started") return RunStartedEvent{};
  return std::nullopt;
}

RunEnd RunFollower::stored_end() {
  const store::RunRecord run = fetch_run(client_, run_id_);
  const auto ok = std::count_if(run.iterations.begin(), run.iterations.end(),
                                [](const store::IterationRecord& it) { return it.status == "ok"; });
  return RunEnd{run_state_stops_following(run.status) ? run.status : state_, run.reason,
                static_cast<unsigned>(ok), run.dropped_samples};
}

std::optional<RunStateEvent> RunFollower::state_change(const std::string& before) {
  if (ended_ || before == state_ || (state_ != "disconnected" && before != "disconnected")) {
    return std::nullopt;
  }
  RunStateEvent change{state_, ""};
  if (state_ == "disconnected") {  // the why is on the queue row
    const nlohmann::json rows = client_.get_json(runs_path("disconnected"));  // outlives the loop
    for (const auto& row : rows.at("runs")) {
      if (row.value("run_id", "") == run_id_) change.reason = row.value("reason", "");
    }
  }
  return change;
}

std::vector<RunEvent> RunFollower::poll(unsigned wait_s) {
  // The server holds a long poll up to wait_s: allow that and a margin.
  const std::chrono::milliseconds timeout = std::chrono::seconds(wait_s) + kDefaultTimeout;
  const nlohmann::json answer = client_.get_json(events_path(run_id_, after_, wait_s), timeout);
  const std::string before = state_;
  std::vector<RunEvent> events = reading("events", [&] {
    std::vector<RunEvent> read;
    for (const auto& e : answer.at("events")) {
      std::optional<RunEvent> event = event_of(e);
      if (!event) continue;
      read.push_back(std::move(*event));
      if (const auto* end = std::get_if<RunEnd>(&read.back())) {
        state_ = end->status;
        reason_ = end->reason;
        dropped_samples_ = end->dropped_samples;
        ended_ = true;
      }
    }
    after_ = std::max(after_, answer.at("next_after").get<long long>());
    if (!ended_) state_ = answer.at("state").get<std::string>();
    return read;
  });
  if (std::optional<RunStateEvent> change = state_change(before)) {
    events.emplace_back(std::move(*change));  // (no aggregate in_place: clang 14)
  }
  if (!ended_ && events.empty() && run_state_stops_following(state_)) {
    RunEnd end = stored_end();
    state_ = end.status;
    reason_ = end.reason;
    dropped_samples_ = end.dropped_samples;
    ended_ = true;
    events.push_back(std::move(end));
  }
  return events;
}

}  // namespace schedrig::client
