#include "host/control/events_poll.h"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include "host/control/api_json.h"

namespace schedrig::control {

namespace {

// A state the run may stay in a while: the poll waits for news. (An
// interrupted run answers at once: followers stop there.)
bool ended(const std::string& state) {
  return state != "queued" && state != "running" && state != "aborting" && state != "disconnected";
}

}  // namespace

EventsPoll::EventsPoll(boost::asio::any_io_executor executor, const store::StateReader& reader,
                       EventsQuery query, std::function<void(nlohmann::json)> done)
    : timer_(executor), reader_(reader), query_(std::move(query)), done_(std::move(done)) {}

void EventsPoll::start() {
  boost::asio::post(timer_.get_executor(), [self = shared_from_this()] { self->poll(); });
}

void EventsPoll::poll() {
  std::string state;
  store::RunEventsPage page;
  try {
    // The state first: once it reads ended, every envelope of the run is stored.
    state = query_.state();
    page = reader_.run_events(query_.agent_id, query_.run_id, query_.after, kScanRows);
  } catch (const std::exception& e) {
    spdlog::error("events of run {}: {}", query_.run_id, e.what());
    return answer(state);
  }
  query_.after = page.next_after;
  for (const store::RunEvent& ev : page.events) events_.push_back(event_json(ev));
  const bool complete = !page.more;
  if (!first_state_) first_state_ = state;
  // A change of state is news too (disconnected, running again): followers
  // say so when it happens, not at the poll's deadline.
  const bool state_changed = state != *first_state_;
  if (events_.size() >= kMaxEvents || (!events_.empty() && complete) || state_changed ||
      (ended(state) && complete) || std::chrono::steady_clock::now() >= query_.deadline) {
    return answer(state);
  }
  if (!complete) {  // more rows to read: go on at once, letting other work run first
    boost::asio::post(timer_.get_executor(), [self = shared_from_this()] { self->poll(); });
    return;
  }
  timer_.expires_after(std::min<std::chrono::steady_clock::duration>(
      query_.interval, query_.deadline - std::chrono::steady_clock::now()));
  timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->poll();
  });
}

void EventsPoll::answer(const std::string& state) {
  done_({{"run_id", query_.run_id},
         {"state", state},
         {"events", std::move(events_)},
         {"next_after", query_.after}});
}

}  // namespace schedrig::control
