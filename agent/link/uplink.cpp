#include "agent/link/uplink.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/link/link_state.h"
#include "agent/link/ws_connection.h"
#include "agent/link/ws_url.h"
#include "common/envelope_codec.h"

namespace schedrig::link {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using v1::Envelope;

namespace {

double seconds(std::chrono::milliseconds d) { return static_cast<double>(d.count()) / 1000.0; }

}  // namespace

Uplink::Uplink(UplinkOptions options, AgentIdentity id, spool::Spool& spool)
    : options_(std::move(options)), id_(std::move(id)), spool_(spool) {}

Uplink::~Uplink() { close(); }

// The thread starts first: when an older instance's backlog fills the
// spool, its replay is what frees room for this instance's Hello.
void Uplink::start(Envelope hello, Envelope topology) {
  thread_ = std::thread([this] { run(); });
  const bool spooled = append(hello, true) != 0;
  {
    std::lock_guard lock(send_mu_);
    hello_bytes_ = encode_envelope(hello);
  }
  if (spooled) append(topology, true);  // else stopped while stalled: one "lost" line, the Hello's
}

std::uint64_t Uplink::send(Envelope env) { return append(env, true); }

std::uint64_t Uplink::append(Envelope& env, bool wait_for_room) {
  for (;;) {
    {
      std::lock_guard lock(send_mu_);
      const std::uint64_t seq = last_seq_ + 1;
      stamp_envelope(env, id_, seq);
      const spool::AppendResult r = spool_.append(env);
      if (r.outcome == spool::AppendOutcome::kStored) {
        last_seq_ = seq;
        if (live_conn_) live_conn_->write(encode_envelope(env));
        if (stalled_) spdlog::info("spool has room again: sending resumes");
        stalled_ = false;
        return seq;
      }
      if (r.outcome == spool::AppendOutcome::kDroppedSample) return 0;
      if (!wait_for_room) {
        spdlog::warn("spool full: {} not sent", body_name(env));
        return 0;
      }
      if (!stalled_)
        spdlog::warn("stalled: spool full ({:.1f} MiB unacked); waiting for the host's acks",
                     static_cast<double>(spool_.stats().bytes) / (1024.0 * 1024.0));
      stalled_ = true;
    }
    if ((options_.stop && options_.stop->load()) || closing()) {
      spdlog::error(
          "stopping with the spool still full: {} is lost: never spooled, it was stamped seq {} "
          "(free for the next envelope)",
          body_name(env), env.seq());
      return 0;
    }
    spool_.wait_for_room(env, 1s);
  }
}

void Uplink::answer(Envelope env) { append(env, false); }

void Uplink::on_ack(std::uint64_t seq) {
  spool_.ack(id_.instance_id, seq);
  std::lock_guard lock(state_mu_);
  acked_ = std::max(acked_, seq);
  state_cv_.notify_all();
}

void Uplink::on_command(Envelope env) {
  if (env.has_abort()) abort_ = true;
  std::lock_guard lock(state_mu_);
  commands_.push_back(std::move(env));
  state_cv_.notify_all();
}

std::optional<Envelope> Uplink::next_command(std::chrono::milliseconds timeout) {
  std::unique_lock lock(state_mu_);
  state_cv_.wait_for(lock, timeout, [&] { return !commands_.empty() || end_ != UplinkEnd::kOpen; });
  if (commands_.empty()) return std::nullopt;
  Envelope env = std::move(commands_.front());
  commands_.pop_front();
  return env;
}

bool Uplink::wait_acked(std::uint64_t seq, std::chrono::milliseconds timeout) {
  std::unique_lock lock(state_mu_);
  state_cv_.wait_for(lock, timeout,
                     [&] { return acked_ >= seq || !live_ || end_ != UplinkEnd::kOpen; });
  return acked_ >= seq;
}

bool Uplink::live() const {
  std::lock_guard lock(state_mu_);
  return live_;
}

UplinkEnd Uplink::end() const {
  std::lock_guard lock(state_mu_);
  return end_;
}

std::string Uplink::end_reason() const {
  std::lock_guard lock(state_mu_);
  return end_reason_;
}

std::uint64_t Uplink::dropped_samples(const std::string& run_id) const {
  return spool_.dropped_samples(run_id);
}

void Uplink::set_live(bool live) {
  std::lock_guard lock(state_mu_);
  live_ = live;
  state_cv_.notify_all();
}

void Uplink::finish(UplinkEnd end, std::string reason) {
  std::lock_guard lock(state_mu_);
  if (end_ != UplinkEnd::kOpen) return;
  end_ = end;
  end_reason_ = std::move(reason);
  state_cv_.notify_all();
}

bool Uplink::closing() const {
  std::lock_guard lock(state_mu_);
  return closing_;
}

bool Uplink::sleep_for(std::chrono::milliseconds d) {
  std::unique_lock lock(state_mu_);
  return !state_cv_.wait_for(lock, d, [&] { return closing_; });
}

void Uplink::close() {
  {
    std::lock_guard lock(state_mu_);
    closing_ = true;
    state_cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  finish(UplinkEnd::kClosed, "closed by the agent");
}

// start() spools the Hello after starting the thread: wait for it ("" once closing).
std::string Uplink::wait_for_hello() {
  for (;;) {
    {
      std::lock_guard lock(send_mu_);
      if (!hello_bytes_.empty()) return hello_bytes_;
    }
    if (!sleep_for(std::chrono::milliseconds(10))) return "";
  }
}

// What one connection attempt came to.
struct Uplink::Attempt {
  enum Kind { kFailed, kLost, kRefused, kHostClosed, kClosing } kind = kFailed;
  std::string reason;
  bool was_live = false;       // a live connection was made
  bool reset_backoff = false;  // it lived long enough or got an Ack
};

Uplink::Attempt Uplink::attempt() {
  try {
    replay_older();
    const std::string hello = wait_for_hello();
    if (hello.empty()) return {Attempt::kClosing, ""};
    return serve_live(hello);
  } catch (const LinkError& e) {
    return {e.kind() == ErrorKind::kUsage ? Attempt::kRefused : Attempt::kFailed, e.what()};
  } catch (const std::exception& e) {  // the spool could not be read: try again later
    return {Attempt::kFailed, e.what()};
  }
}

Uplink::Attempt Uplink::serve_live(const std::string& hello) {
  LinkState state(id_, LinkHooks{[this](std::uint64_t seq) { on_ack(seq); },
                                 [this](Envelope env) { on_command(std::move(env)); },
                                 [this](Envelope env) { answer(std::move(env)); }});
  state.set_url(options_.url);
  auto conn = open_connection(state, parse_ws_url(options_.url), options_.security,
                              options_.connect_timeout, options_.silence_limit, spool_backlog());
  const auto since = Clock::now();
  spdlog::info("connected to {} (instance {})", options_.url, id_.instance_id);
  set_live(true);
  conn->write(hello);
  if (catch_up(state, *conn)) {
    std::unique_lock lock(state_mu_);
    while (!closing_ && !state.closed()) state_cv_.wait_for(lock, 100ms);
  }
  {
    std::lock_guard lock(send_mu_);
    live_conn_ = nullptr;
    set_live(false);
  }
  conn->close();
  Attempt a{Attempt::kLost, state.close_reason(), true,
            state.acked_seq() > 0 || Clock::now() - since >= options_.backoff.reset_after};
  if (closing()) {
    a.kind = Attempt::kClosing;
  } else if (state.refused()) {
    a.kind = Attempt::kRefused;
    a.reason = "host refused this agent: " + a.reason;
  } else if (state.closed_cleanly()) {
    a.kind = Attempt::kHostClosed;
  }
  return a;
}

void Uplink::run() {
  spdlog::info("connecting to {}", options_.url);
  Backoff backoff(options_.backoff, options_.backoff_seed);
  auto down_since = Clock::now();
  bool ever_live = false;
  bool told = false;  // "host unreachable" logged for this outage
  while (!closing()) {
    const Attempt a = attempt();
    if (a.kind == Attempt::kClosing) return;
    if (a.kind == Attempt::kRefused) return finish(UplinkEnd::kRefused, a.reason);
    if (a.kind == Attempt::kHostClosed) {
      abort_ = true;  // the session is over: a run still going ends aborted
      return finish(UplinkEnd::kHostClosed, a.reason);
    }
    if (a.was_live) {
      ever_live = true;
      down_since = Clock::now();
      told = false;
      if (a.reset_backoff) backoff.reset();
      spdlog::warn("link lost: {}; reconnecting (backoff {} ms, up to {:.3g} s)", a.reason,
                   backoff.ceiling().count(), seconds(options_.backoff.cap));
    } else if (!told) {
      spdlog::warn("host unreachable: {}; still trying", a.reason);
      told = true;
    }
    auto delay = backoff.next();
    if (options_.give_up_after.count() > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          down_since + options_.give_up_after - Clock::now());
      if (left.count() <= 0) {
        abort_ = true;  // the session ends: a run still going ends aborted, knobs restored
        return finish(
            ever_live ? UplinkEnd::kLost : UplinkEnd::kNeverConnected,
            fmt::format("giving up after {:.3g} s: {}", seconds(options_.give_up_after), a.reason));
      }
      delay = std::min(delay, left);
    }
    if (!sleep_for(delay)) return;
  }
}

}  // namespace schedrig::link
