#include "host/collector/agent_session.h"

#include <utility>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "common/envelope_codec.h"
#include "common/error.h"
#include "common/ids.h"
#include "common/printable.h"
#include "common/wire_names.h"
#include "host/collector/replay_target.h"
#include "host/collector/session_rules.h"
#include "host/server/routing.h"

namespace schedrig::collector {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace v1 = schedrig::v1;
using Verdict = EnvelopeCheck::Verdict;

namespace {

// Host->agent messages queued before reading pauses (an agent that does not
// read its acks stops being read).
constexpr std::size_t kMaxQueuedWrites = 1024;
// The WebSocket opening and closing handshakes.
constexpr std::chrono::seconds kHandshakeTimeout{10};

websocket::stream_base::timeout session_timeouts() {
  websocket::stream_base::timeout t{};
  t.handshake_timeout = kHandshakeTimeout;
  t.idle_timeout = websocket::stream_base::none();  // our own timer (on_tick) decides
  t.keep_alive_pings = false;
  return t;
}

}  // namespace

template <class Stream>
AgentSession<Stream>::AgentSession(Stream&& stream, server::AgentUpgrade upgrade,
                                   std::shared_ptr<SessionServices> services)
    : ws_(std::move(stream)),
      upgrade_(std::move(upgrade)),
      services_(std::move(services)),
      peer_(upgrade_.peer),
      agent_id_(upgrade_.principal.name),
      replay_(replay_requested(server::to_std(upgrade_.request.target()))),
      spool_backlog_(spool_backlog_of(server::to_std(upgrade_.request[kSpoolBacklogHeader]))),
      tick_(ws_.get_executor()),
      probe_timer_(ws_.get_executor()),
      hello_timer_(ws_.get_executor()) {}

template <class Stream>
void AgentSession<Stream>::run() {
  upgrade_.slot.attach(this->shared_from_this());
  upgrade_.pending.attach(this->shared_from_this());  // evicted while still without Hello: stopped
  asio::dispatch(ws_.get_executor(), [self = this->shared_from_this()] {
    self->ws_.set_option(session_timeouts());
    self->ws_.binary(true);
    self->ws_.read_message_max(kMaxEnvelopeBytes);
    self->ws_.control_callback([raw = self.get()](websocket::frame_type kind, beast::string_view) {
      raw->on_frame(kind);
    });
    self->ws_.async_accept(self->upgrade_.request,
                           [self](beast::error_code ec) { self->on_accept(ec); });
  });
}

template <class Stream>
void AgentSession<Stream>::on_accept(beast::error_code ec) {
  if (ec) return finish(fmt::format("WebSocket accept: {}", ec.message()));
  open_ = true;
  upgrade_.request = {};  // not needed any more
  log_connected();
  heard_from_peer();
  start_hello_deadline();
  schedule_tick();
  maybe_read();
}

template <class Stream>
void AgentSession<Stream>::log_connected() {
  const long long left_out =
      services_->connected_lines->admit(server::RateLimitedLog::Clock::now());
  if (left_out < 0) return;
  spdlog::info("{}: agent {} connected{}{}", peer_, printable(agent_id_),
               replay_ ? " to replay an older instance" : "",
               left_out > 0
                   ? fmt::format(" ({} more connections since the last such line)", left_out)
                   : std::string());
}

template <class Stream>
void AgentSession<Stream>::start_hello_deadline() {
  hello_timer_.expires_after(upgrade_.timing.hello_timeout);
  hello_timer_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
    if (ec || self->finished_ || self->close_requested_ || self->ledger_.hello_accepted() ||
        self->claiming_) {
      return;
    }
    const long long ms = self->upgrade_.timing.hello_timeout.count();
    self->refusing_ = true;
    const std::string why = ms % 1000 == 0 ? fmt::format("no Hello within {} s", ms / 1000)
                                           : fmt::format("no Hello within {} ms", ms);
    spdlog::warn("{} (agent {}): {}; closing with 1008", self->peer_, printable(self->agent_id_),
                 why);
    self->close_with(CloseCode::policy_error, why);
  });
}

template <class Stream>
void AgentSession<Stream>::maybe_read() {
  if (read_in_flight_ || !open_ || finished_ || closing_ || refusing_ || held_ || claiming_ ||
      write_queue_.size() >= kMaxQueuedWrites) {
    return;
  }
  read_in_flight_ = true;
  ws_.async_read(buffer_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
    self->on_read(ec);
  });
}

template <class Stream>
void AgentSession<Stream>::on_read(beast::error_code ec) {
  read_in_flight_ = false;
  if (ec == websocket::error::message_too_big) {
    return finish(
        fmt::format("message over {} bytes: closed with 1009 (message too big)", kMaxEnvelopeBytes),
        log_level_for(ErrorKind::kPeerLimit));
  }
  if (ec == websocket::error::closed) {
    return finish(closing_ ? close_reason_ : "agent closed the connection");
  }
  if (ec)
    return finish(close_reason_.empty() ? fmt::format("read: {}", ec.message()) : close_reason_);
  heard_from_peer();
  std::string bytes = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  if (!refusing_) handle_message(std::move(bytes));
  maybe_read();
}

template <class Stream>
void AgentSession<Stream>::on_frame(websocket::frame_type) {
  heard_from_peer();  // a ping, a pong or a close: the peer is there
}

template <class Stream>
void AgentSession<Stream>::heard_from_peer() {
  last_heard_ = std::chrono::steady_clock::now();
  if (!probes_.empty()) end_probes(true);
}

template <class Stream>
void AgentSession<Stream>::handle_message(std::string bytes) {
  DecodeResult r = decode_envelope(bytes);
  if (!r.envelope) {
    warn_bad_frame(fmt::format("bad message ({} bytes): {}", bytes.size(), r.error));
    return reply_error(r.code, r.error, 0);
  }
  const EnvelopeCheck check = check_envelope(*r.envelope, agent_id_, ledger_);
  if (check.verdict == Verdict::kReplyError) {
    warn_bad_frame(printable(check.message));
    return reply_error(check.code, check.message, r.envelope->seq());
  }
  if (check.verdict == Verdict::kViolation) {
    return violation(check.code, check.message, r.envelope->seq());
  }
  auto env = std::make_shared<const Envelope>(std::move(*r.envelope));
  if (env->has_hello()) return claim_id(std::move(env), std::move(bytes));  // the first: the rules
  ledger_.take(*env);
  if (drop_runless_log(*env)) return ack_dropped(env->seq());
  submit(std::move(env), std::move(bytes));
}

template <class Stream>
bool AgentSession<Stream>::drop_runless_log(const Envelope& env) {
  if (!env.has_log() || !env.log().run_id().empty()) return false;
  if (runless_logs_.take(std::chrono::steady_clock::now())) return false;
  if (runless_logs_.dropped() == 1) {
    spdlog::warn("{} (agent {}): over {} Logs without a run in {} s: dropping the rest (counted)",
                 peer_, printable(agent_id_), RunlessLogBudget::kPerWindow,
                 RunlessLogBudget::kWindow.count());
  }
  return true;
}

template <class Stream>
void AgentSession<Stream>::ack_dropped(std::uint64_t seq) {
  if (pending_writes_ > 0) {  // the Ack is cumulative: not before what came first commits
    dropped_seq_ = seq;
    return;
  }
  if (ack_seq_ == 0) ack_instance_ = ledger_.instance_id;
  ack_seq_ = std::max(ack_seq_, seq);
  flush_ack();
}

template <class Stream>
void AgentSession<Stream>::warn_bad_frame(const std::string& what) {
  bad_frames_.warn(fmt::format("{} (agent {}): {}", peer_, printable(agent_id_), what));
}

template <class Stream>
void AgentSession<Stream>::claim_id(std::shared_ptr<const Envelope> hello, std::string bytes) {
  claiming_ = true;  // reading waits for the decision
  if (replay_) return on_claim(true, "", std::move(hello), std::move(bytes));  // no id to hold
  services_->registry->claim(
      agent_id_, hello->instance_id(), this->shared_from_this(),
      [self = this->shared_from_this(), hello, bytes = std::move(bytes)](
          bool accepted, const std::string& why) mutable {
        asio::post(self->ws_.get_executor(),
                   [self, accepted, why, hello = std::move(hello), bytes = std::move(bytes)] {
                     self->on_claim(accepted, why, hello, bytes);
                   });
      });
}

template <class Stream>
void AgentSession<Stream>::on_claim(bool accepted, const std::string& why,
                                    std::shared_ptr<const Envelope> hello, std::string bytes) {
  if (finished_) {
    if (accepted && !replay_) services_->registry->release(agent_id_, this);
    return;
  }
  claiming_ = false;
  if (!accepted) return violation(v1::ERROR_UNEXPECTED, why, hello->seq());
  hello_timer_.cancel();
  upgrade_.pending.release();  // no longer a pending connection of its peer
  ledger_.take(*hello);
  submit(std::move(hello), std::move(bytes));
  maybe_read();
}

template <class Stream>
void AgentSession<Stream>::submit(std::shared_ptr<const Envelope> env, std::string bytes) {
  WriteItem item{env, std::move(bytes),
                 [self = this->shared_from_this(), env](const WriteOutcome& outcome) {
                   self->deliver(env, outcome);
                 }};
  item.replay_session = replay_;
  ++pending_writes_;
  auto on_room = [weak = this->weak_from_this()] {
    if (auto self = weak.lock()) {
      asio::post(self->ws_.get_executor(), [self] { self->retry_held(); });
    }
  };
  if (!services_->writer.submit(item, on_room)) held_ = std::move(item);  // reading pauses
}

template <class Stream>
void AgentSession<Stream>::retry_held() {
  if (!held_) return;
  auto on_room = [weak = this->weak_from_this()] {
    if (auto self = weak.lock()) {
      asio::post(self->ws_.get_executor(), [self] { self->retry_held(); });
    }
  };
  if (!services_->writer.submit(*held_, on_room)) return;  // still full: wait again
  held_.reset();
  heard_from_peer();  // the pause was ours, not the peer's silence
  maybe_read();
}

template <class Stream>
void AgentSession<Stream>::deliver(std::shared_ptr<const Envelope> env, WriteOutcome outcome) {
  bool first = false;
  {
    std::lock_guard lock(delivered_mu_);
    first = delivered_.empty();
    delivered_.push_back({std::move(env), std::move(outcome)});
  }
  // The writer hands a batch's outcomes over in one go: the strand takes
  // them together and answers them with one Ack.
  if (first) {
    asio::post(ws_.get_executor(), [self = this->shared_from_this()] { self->drain_outcomes(); });
  }
}

template <class Stream>
void AgentSession<Stream>::drain_outcomes() {
  draining_.clear();
  {
    std::lock_guard lock(delivered_mu_);
    draining_.swap(delivered_);
  }
  for (const Delivered& d : draining_) on_written(d.env, d.outcome);
  draining_.clear();
  flush_ack();
}

template <class Stream>
void AgentSession<Stream>::flush_ack() {
  if (ack_seq_ == 0) return;
  Envelope ack;
  ack.mutable_ack()->set_instance_id(std::move(ack_instance_));
  ack.mutable_ack()->set_seq(ack_seq_);
  ack_instance_.clear();
  ack_seq_ = 0;
  enqueue(std::move(ack));
}

template <class Stream>
void AgentSession<Stream>::on_written(const std::shared_ptr<const Envelope>& env,
                                      const WriteOutcome& outcome) {
  --pending_writes_;
  using Status = WriteOutcome::Status;
  if (outcome.status == Status::kFailed && !refusing_ && !finished_) {
    // Acks are cumulative, so nothing after this seq may be acked: stop
    // taking envelopes and close, so the agent ends the run (and restores
    // its knobs) instead of streaming into a hole.
    refusing_ = true;
    spdlog::error("{} (agent {}): seq {} not stored: {}", peer_, printable(agent_id_), env->seq(),
                  outcome.error);
    reply_error(v1::ERROR_INTERNAL, outcome.peer_error, env->seq());
    close_with(CloseCode::internal_error, "the store failed: " + outcome.peer_error);
  } else if (outcome.status == Status::kRefused && !refusing_ && !finished_) {
    violation(v1::ERROR_NOT_OWNER, outcome.peer_error, env->seq(), outcome.error);
  } else if (outcome.status == Status::kSkipped && !refusing_ && !finished_) {
    // Not a breach: told, and acked below so the agent's spool lets it go.
    spdlog::warn("{} (agent {}): {}", peer_, printable(agent_id_), printable(outcome.error));
    reply_error(v1::ERROR_NOT_OWNER, outcome.peer_error, env->seq());
  }
  if (outcome.status == Status::kStored || outcome.status == Status::kDuplicate ||
      outcome.status == Status::kSkipped) {
    if (!refusing_ && !finished_) {
      // The Ack is owed from here on: anything sent to the agent (a
      // message or a close the owner asks for) goes out after it (enqueue,
      // close_with), and drain_outcomes sends it after the burst.
      if (ack_seq_ != 0 && ack_instance_ != env->instance_id()) flush_ack();
      if (ack_seq_ == 0) ack_instance_ = env->instance_id();
      ack_seq_ = std::max(ack_seq_, env->seq());
      if (pending_writes_ == 0) ack_seq_ = std::max(ack_seq_, std::exchange(dropped_seq_, 0));
    }
    // The accepted Hello (a session's only one) makes the channel live,
    // even when it was stored before (a replay); on_stored is for what is new.
    if (env->has_hello() && !replay_) services_->events.on_hello(this->shared_from_this(), *env);
    if (outcome.status == Status::kStored) services_->events.on_stored(*env);
  }
  report_closed_when_drained();
}

template <class Stream>
void AgentSession<Stream>::reply_error(v1::ErrorCode code, const std::string& message,
                                       std::uint64_t seq) {
  Envelope env;
  env.mutable_error()->set_code(code);
  env.mutable_error()->set_message(message);
  env.mutable_error()->set_in_reply_to_seq(seq);
  enqueue(std::move(env));
}

template <class Stream>
void AgentSession<Stream>::violation(v1::ErrorCode code, const std::string& message,
                                     std::uint64_t seq, const std::string& log_detail) {
  refusing_ = true;
  spdlog::warn("{} (agent {}): refused: {}; closing with 1008 (policy violation)", peer_,
               printable(agent_id_), printable(log_detail.empty() ? message : log_detail));
  reply_error(code, message, seq);
  close_with(CloseCode::policy_error, "refused: " + message);
}

template <class Stream>
void AgentSession<Stream>::close_with(CloseCode code, const std::string& reason) {
  flush_ack();
  close_code_ = code;
  close_reason_ = reason;
  close_requested_ = true;
  if (write_queue_.empty()) do_close();  // else on_write closes when drained
}

template <class Stream>
void AgentSession<Stream>::send(Envelope env) {
  asio::post(ws_.get_executor(), [self = this->shared_from_this(), env = std::move(env)]() mutable {
    self->enqueue(std::move(env));
  });
}

template <class Stream>
void AgentSession<Stream>::enqueue(Envelope env) {
  if (finished_ || closing_) return;
  if (ack_seq_ != 0 && !env.has_ack()) flush_ack();  // what was stored is acked first
  env.set_protocol_version(kProtocolVersion);
  env.set_sent_at_ns(wall_clock_ns());
  env.set_agent_id(agent_id_);
  write_queue_.push_back(encode_envelope(env));
  if (write_queue_.size() == 1) do_write();
}

template <class Stream>
void AgentSession<Stream>::do_write() {
  ws_.async_write(
      asio::buffer(write_queue_.front()),
      [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
}

template <class Stream>
void AgentSession<Stream>::on_write(beast::error_code ec) {
  if (ec) return finish(fmt::format("write: {}", ec.message()));
  write_queue_.pop_front();
  if (!write_queue_.empty()) return do_write();
  if (close_requested_) return do_close();
  maybe_read();
}

template <class Stream>
void AgentSession<Stream>::close() {
  asio::post(ws_.get_executor(), [self = this->shared_from_this()] {
    if (self->close_requested_) return;
    self->close_with(CloseCode::normal, "closed by the host");
  });
}

template <class Stream>
void AgentSession<Stream>::stop() {
  if (!services_->going_away->load()) return close();
  asio::post(ws_.get_executor(), [self = this->shared_from_this()] {
    if (self->close_requested_) return;
    self->close_with(CloseCode::going_away, "the host is going away; reconnect");
  });
}

template <class Stream>
void AgentSession<Stream>::replace(const std::string& why) {
  asio::post(ws_.get_executor(), [self = this->shared_from_this(), why] {
    self->refusing_ = true;
    self->close_with(CloseCode::policy_error, "replaced: " + why);
  });
}

template <class Stream>
void AgentSession<Stream>::do_close() {
  if (finished_ || closing_) return;
  if (!open_) return finish(close_reason_);
  closing_ = true;
  ws_.async_close(
      websocket::close_reason(close_code_, close_reason_.substr(0, 120)),
      [self = this->shared_from_this()](beast::error_code) { self->finish(self->close_reason_); });
}

template <class Stream>
void AgentSession<Stream>::finish(const std::string& reason, const char* log_level) {
  if (finished_) return;
  finished_ = true;
  end_reason_ = reason;
  tick_.cancel();
  hello_timer_.cancel();
  upgrade_.pending.release();
  end_probes(false);
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
  if (ledger_.hello_accepted() && !replay_) services_->registry->release(agent_id_, this);
  upgrade_.slot.release();
  if (held_) {  // never stored, never acked: the agent sends it again
    held_.reset();
    --pending_writes_;
  }
  spdlog::log(spdlog::level::from_str(log_level), "{} (agent {}): {}", peer_, printable(agent_id_),
              printable(reason));
  if (runless_logs_.dropped() > 0) {
    spdlog::warn("{} (agent {}): {} Logs without a run dropped in this session", peer_,
                 printable(agent_id_), runless_logs_.dropped());
  }
  report_closed_when_drained();
}

template <class Stream>
void AgentSession<Stream>::report_closed_when_drained() {
  if (!finished_ || closed_reported_ || pending_writes_ > 0) return;
  closed_reported_ = true;
  services_->events.on_closed(
      *this, ledger_.hello_accepted() && !replay_ ? agent_id_ : std::string(), end_reason_);
}

template class AgentSession<server::PlainStream>;
template class AgentSession<server::TlsStream>;

}  // namespace schedrig::collector
