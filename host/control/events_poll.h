// One long poll of GET /api/v1/runs/ID/events (docs/architecture.md "HTTP
// API"): reads the run's envelopes after a cursor every poll interval on an
// asio timer, never blocking the executor for longer than one bounded read,
// and answers once when events exist, the run has ended (and every envelope
// of it was read), or the wait is over.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "host/store/agent_state_queries.h"

namespace schedrig::control {

// What the poll needs to know about the run beyond its envelopes.
struct EventsQuery {
  std::string run_id, agent_id;
  long long after = 0;  // the client's cursor (envelope id)
  std::chrono::steady_clock::time_point deadline;
  std::chrono::milliseconds interval{150};
  // The run's state now ("queued", "running", "aborting", "ok", ...).
  std::function<std::string()> state;
};

class EventsPoll : public std::enable_shared_from_this<EventsPoll> {
 public:
  // `done` gets {"run_id", "state", "events":[...], "next_after"} once.
  EventsPoll(boost::asio::any_io_executor executor, const store::StateReader& reader,
             EventsQuery query, std::function<void(nlohmann::json)> done);
  // Polls at once, then on the timer.
  void start();

  // Envelope rows one read looks at, and events one answer holds at most.
  static constexpr int kScanRows = 5000;
  static constexpr std::size_t kMaxEvents = 2000;

 private:
  void poll();
  void answer(const std::string& state);

  boost::asio::steady_timer timer_;
  const store::StateReader& reader_;
  EventsQuery query_;
  std::function<void(nlohmann::json)> done_;
  nlohmann::json events_ = nlohmann::json::array();
  std::optional<std::string> first_state_;  // the run's state at the first look
};

}  // namespace schedrig::control
