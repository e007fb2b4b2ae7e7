#include "agent/link/link_state.h"

#include <fmt/format.h>

#include "agent/link/host_link.h"
#include "common/envelope_codec.h"

namespace schedrig::link {

using v1::Envelope;

void LinkState::set_url(std::string url) { url_ = std::move(url); }

std::uint64_t LinkState::stamp(Envelope env, const std::function<void(std::string)>& queue) {
  std::lock_guard lock(mu_);
  if (closed_)
    throw LinkError(ErrorKind::kUnreachable,
                    fmt::format("link to {} is closed: {}", url_, close_reason_));
  const std::uint64_t seq = stamper_.stamp(env);
  queue(encode_envelope(env));
  return seq;
}

void LinkState::take(Envelope env) {
  const bool ours = env.has_ack() && env.ack().instance_id() == stamper_.identity().instance_id;
  if (ours && hooks_.on_ack) hooks_.on_ack(env.ack().seq());
  if (!env.has_ack() && hooks_.on_command) return hooks_.on_command(std::move(env));
  std::lock_guard lock(mu_);
  if (ours) {
    acked_ = std::max<std::uint64_t>(acked_, env.ack().seq());
  } else if (!env.has_ack()) {
    if (env.has_abort()) abort_ = true;
    commands_.push_back(std::move(env));
  }
  cv_.notify_all();
}

void LinkState::answer(Envelope env, const std::function<void(std::string)>& queue) {
  if (hooks_.answer) return hooks_.answer(std::move(env));
  try {
    stamp(std::move(env), queue);
  } catch (const LinkError&) {  // closing: nothing to answer on
  }
}

std::optional<Envelope> LinkState::next_command(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, timeout, [&] { return !commands_.empty() || closed_; });
  if (commands_.empty()) return std::nullopt;
  Envelope env = std::move(commands_.front());
  commands_.pop_front();
  return env;
}

bool LinkState::wait_acked(std::uint64_t seq, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return acked_ >= seq || closed_; }) && acked_ >= seq;
}

std::uint64_t LinkState::acked_seq() const {
  std::lock_guard lock(mu_);
  return acked_;
}

void LinkState::mark_closed(const std::string& reason, LinkEnd end) {
  std::lock_guard lock(mu_);
  if (closed_) return;
  closed_ = true;
  end_ = end;
  close_reason_ = reason;
  cv_.notify_all();
}

bool LinkState::closed() const {
  std::lock_guard lock(mu_);
  return closed_;
}

bool LinkState::closed_cleanly() const {
  std::lock_guard lock(mu_);
  return closed_ && end_ == LinkEnd::kClean;
}

bool LinkState::refused() const {
  std::lock_guard lock(mu_);
  return closed_ && end_ == LinkEnd::kRefused;
}

std::string LinkState::close_reason() const {
  std::lock_guard lock(mu_);
  return close_reason_;
}

}  // namespace schedrig::link
