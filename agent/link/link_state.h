// What the agent's link knows, shared between the I/O thread and the
// agent's threads: the envelope stamper, the host's commands and acks, and
// how the link ended. Thread-safe; knows nothing of sockets or streams
// (ws_connection.h moves the bytes).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "common/envelope_stamp.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::link {

// How a link ended.
enum class LinkEnd {
  kClean,    // a normal close (1000) from the host, or the agent's own close()
  kRefused,  // the host closed with 1008 (policy violation): it refused this agent
  kLost,     // anything else: a reset, another close code, an over-size message
};

class LinkState {
 public:
  explicit LinkState(AgentIdentity identity) : stamper_(std::move(identity)) {}

  // The URL the link dials, for messages.
  void set_url(std::string url);
  const std::string& url() const { return url_; }
  const AgentIdentity& identity() const { return stamper_.identity(); }

  // Stamps `env` (EnvelopeStamper: next seq, identity, sent_at_ns), encodes
  // it and hands the bytes to `queue` under one lock, so envelopes are queued
  // for the wire in seq order whichever threads send them (the host refuses
  // a seq not above the last one within a connection, docs/architecture.md
  // "Session rules"). `queue` must not call back into this LinkState.
  // Returns the seq. Throws LinkError(kUnreachable) once closed.
  std::uint64_t stamp(schedrig::v1::Envelope env,
                      const std::function<void(std::string bytes)>& queue);

  // A decoded host->agent envelope: an Ack for this instance raises
  // acked_seq(); anything else is queued for next_command() (an Abort also
  // sets the abort flag).
  void take(schedrig::v1::Envelope env);

  std::optional<schedrig::v1::Envelope> next_command(std::chrono::milliseconds timeout);
  bool wait_acked(std::uint64_t seq, std::chrono::milliseconds timeout);
  std::uint64_t acked_seq() const;

  // Records the end of the link once (later calls change nothing), sets the
  // abort flag and wakes every waiter.
  void mark_closed(const std::string& reason, LinkEnd end);
  bool closed() const;
  bool closed_cleanly() const;
  bool refused() const;  // closed with LinkEnd::kRefused
  std::string close_reason() const;
  std::atomic<bool>& abort_flag() { return abort_; }

 private:
  EnvelopeStamper stamper_;
  std::string url_;  // set before the I/O thread starts
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<schedrig::v1::Envelope> commands_;
  std::uint64_t acked_ = 0;
  bool closed_ = false;
  LinkEnd end_ = LinkEnd::kLost;  // meaningful once closed_
  std::string close_reason_;
  std::atomic<bool> abort_{false};
};

}  // namespace schedrig::link
