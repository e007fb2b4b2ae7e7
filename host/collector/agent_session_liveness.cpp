// The liveness half of an agent session (agent_session.h): the ping tick
// that closes a silent agent, and the probes the session registry sends when
// another connection claims the same agent id (session_registry.h). The
// session's strand runs all of it.
#include <fmt/format.h>
#include <boost/asio/post.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "host/collector/agent_session.h"

namespace schedrig::collector {

namespace asio = boost::asio;
namespace beast = boost::beast;

template <class Stream>
void AgentSession<Stream>::schedule_tick() {
  tick_.expires_after(upgrade_.timing.ping_interval);
  tick_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
    if (!ec) self->on_tick();
  });
}

template <class Stream>
void AgentSession<Stream>::on_tick() {
  if (finished_) return;
  if (held_ || claiming_) heard_from_peer();  // we are the ones waiting
  const auto silent = std::chrono::steady_clock::now() - last_heard_;
  if (silent >= upgrade_.timing.idle_timeout) {
    close_reason_ =
        fmt::format("nothing from the agent for {} ms: closed",
                    std::chrono::duration_cast<std::chrono::milliseconds>(silent).count());
    refusing_ = true;
    beast::get_lowest_layer(ws_).close();  // a silent peer would not finish a close handshake
    return finish(close_reason_, "warn");
  }
  if (!ping_in_flight_ && !closing_) {
    ping_in_flight_ = true;
    ws_.async_ping({}, [self = this->shared_from_this()](beast::error_code) {
      self->ping_in_flight_ = false;
    });
  }
  schedule_tick();
}

template <class Stream>
void AgentSession<Stream>::probe(std::chrono::milliseconds timeout,
                                 std::function<void(bool)> answer) {
  asio::post(ws_.get_executor(), [self = this->shared_from_this(), timeout,
                                  answer = std::move(answer)]() mutable {
    if (self->finished_ || self->closing_) return answer(false);
    self->probes_.push_back(std::move(answer));
    if (self->probes_.size() > 1) return;  // a ping is out already
    self->probe_timer_.expires_after(timeout);
    self->probe_timer_.async_wait([self](beast::error_code ec) {
      if (!ec) self->end_probes(false);
    });
    if (!self->ping_in_flight_) {
      self->ping_in_flight_ = true;
      self->ws_.async_ping({}, [self](beast::error_code) { self->ping_in_flight_ = false; });
    }
  });
}

template <class Stream>
void AgentSession<Stream>::end_probes(bool alive) {
  probe_timer_.cancel();
  std::vector<std::function<void(bool)>> probes = std::move(probes_);
  probes_.clear();
  for (auto& answer : probes) answer(alive);
}

// The members above, for both streams (the rest are instantiated in
// agent_session.cpp).
#define SCHEDRIG_LIVENESS_MEMBERS(S)                                                          \
  template void AgentSession<S>::schedule_tick();                                             \
  template void AgentSession<S>::on_tick();                                                   \
  template void AgentSession<S>::probe(std::chrono::milliseconds, std::function<void(bool)>); \
  template void AgentSession<S>::end_probes(bool);
SCHEDRIG_LIVENESS_MEMBERS(server::PlainStream)
SCHEDRIG_LIVENESS_MEMBERS(server::TlsStream)
#undef SCHEDRIG_LIVENESS_MEMBERS

}  // namespace schedrig::collector
