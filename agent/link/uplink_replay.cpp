// The replaying half of the uplink (uplink.h; docs/architecture.md "Spool",
// "Wire protocol"): older instances on their own `?replay=1` connections,
// then this instance's unacked envelopes on the live connection until it is
// caught up. Writes are paced by the host's acks (UplinkOptions::replay_window).
#include <algorithm>
#include <deque>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/link/link_state.h"
#include "agent/link/uplink.h"
#include "agent/link/ws_connection.h"
#include "agent/link/ws_url.h"
#include "common/envelope_codec.h"

namespace schedrig::link {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using v1::Envelope;

namespace {

// Waits until `state` has the host's Ack of `seq`, the connection closed,
// `closing()` or `timeout` passed; true when acked.
template <class Closing>
bool wait_acked_while(LinkState& state, std::uint64_t seq, std::chrono::milliseconds timeout,
                      const Closing& closing) {
  const auto until = Clock::now() + timeout;
  while (state.acked_seq() < seq) {
    if (state.closed() || closing() || Clock::now() >= until) return false;
    state.wait_acked(seq, 100ms);
  }
  return true;
}

// Paces a replay by the host's acks: at most `window` envelopes written and
// not yet acked. It counts what was written, not seq distances, so a gap in
// the spooled seqs (recovery set a damaged record aside) cannot stall it.
class ReplayPacer {
 public:
  explicit ReplayPacer(std::uint64_t window) : window_(std::max<std::uint64_t>(window, 1)) {}

  // Writes `env` once fewer than `window` written envelopes are unacked;
  // false when the connection closed (or `closing()`) first.
  template <class Closing>
  bool write(LinkState& state, Connection& conn, const Envelope& env, const Closing& closing) {
    for (;;) {
      const std::uint64_t acked = state.acked_seq();
      while (!unacked_.empty() && unacked_.front() <= acked) unacked_.pop_front();
      if (unacked_.size() < window_) break;
      if (state.closed() || closing()) return false;
      state.wait_acked(unacked_.front(), 100ms);
    }
    conn.write(encode_envelope(env));
    unacked_.push_back(env.seq());
    return !state.closed();
  }

 private:
  std::uint64_t window_;
  std::deque<std::uint64_t> unacked_;  // seqs written, oldest first
};

// `url` with the query replay=1 (contract: docs/architecture.md "Spool").
WsUrl replay_url(const std::string& url) {
  WsUrl u = parse_ws_url(url);
  u.path += u.path.find('?') == std::string::npos ? "?replay=1" : "&replay=1";
  return u;
}

}  // namespace

std::uint64_t Uplink::spool_backlog() const {
  std::uint64_t total = 0;
  for (const spool::PendingInstance& p : spool_.pending()) {
    total += p.last_seq > p.acked_seq ? p.last_seq - p.acked_seq : 0;
  }
  return total;
}

void Uplink::replay_older() {
  for (const spool::PendingInstance& p : spool_.pending()) {
    if (p.instance_id == id_.instance_id) continue;
    if (p.agent_id != id_.agent_id || !p.hello) {
      if (skipped_.insert(p.instance_id).second)
        spdlog::warn("spool holds unacked envelopes of instance {} ({}): kept, not replayed",
                     p.instance_id,
                     p.hello ? fmt::format("agent '{}', not '{}'", p.agent_id, id_.agent_id)
                             : std::string("its Hello is lost"));
      continue;
    }
    replay_instance(p);
  }
}

void Uplink::replay_instance(const spool::PendingInstance& p) {
  const auto closing = [this] { return this->closing(); };
  const std::string& id = p.instance_id;
  LinkState state(AgentIdentity{p.agent_id, p.hello->boot_id(), id},
                  LinkHooks{[this, &id](std::uint64_t seq) { spool_.ack(id, seq); },
                            [](Envelope) {}, [](Envelope) {}});
  state.set_url(options_.url);
  auto conn = open_connection(state, replay_url(options_.url), options_.security,
                              options_.connect_timeout, options_.silence_limit);
  spdlog::info("replaying instance {}: its unacked envelopes, seq {} to {}", id, p.acked_seq + 1,
               p.last_seq);
  conn->write(encode_envelope(*p.hello));
  std::uint64_t last = p.hello->seq();
  spool::ReplayCursor cursor = spool_.replay(id);
  ReplayPacer pacer(options_.replay_window);
  while (auto env = cursor.next()) {
    if (!pacer.write(state, *conn, *env, closing)) break;
    last = env->seq();
  }
  const bool acked = wait_acked_while(state, last, options_.replay_ack_timeout, closing);
  conn->close();
  if (state.refused()) {  // for good: retrying would only be refused again
    spdlog::error("host refused the replay of instance {}: {}; its envelopes are dropped", id,
                  state.close_reason());
    spool_.ack(id, p.last_seq);
    return;
  }
  if (!acked)
    throw LinkError(ErrorKind::kUnreachable,
                    fmt::format("replay of instance {}: {}", id,
                                state.closed() ? state.close_reason()
                                               : "its last envelope was not acked in time"));
}

bool Uplink::catch_up(LinkState& state, Connection& conn) {
  const auto closing = [this] { return this->closing(); };
  std::uint64_t written = 1;        // the Hello
  bool told = ++connections_ == 1;  // the first connection's Topology is no replay
  ReplayPacer pacer(options_.replay_window);
  for (;;) {
    std::uint64_t spooled = 0;  // every envelope up to it is in the cursor's segments
    {
      std::lock_guard lock(send_mu_);
      spooled = last_seq_;
    }
    spool::ReplayCursor cursor = spool_.replay(id_.instance_id);
    while (auto env = cursor.next()) {
      if (env->seq() <= written) continue;
      if (!told) {
        spdlog::info("replaying {} envelopes of instance {}", spooled + 1 - env->seq(),
                     id_.instance_id);
        told = true;
      }
      if (!pacer.write(state, conn, *env, closing)) return false;
      written = env->seq();
    }
    std::lock_guard lock(send_mu_);
    if (last_seq_ == spooled) {  // nothing sent meanwhile: from now on straight to the wire
      live_conn_ = &conn;
      return true;
    }
  }
}

}  // namespace schedrig::link
