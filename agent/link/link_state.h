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

// Where a connection's host->agent traffic goes instead of the LinkState's
// own queue, for an owner that outlives connections (agent/link/uplink.h).
// Each hook runs on the I/O thread and must not block for long. Unset hooks
// keep the LinkState's own behaviour.
struct LinkHooks {
  // An Ack for this LinkState's instance, with its seq (also raises acked_seq()).
  std::function<void(std::uint64_t seq)> on_ack;
  // Any other host->agent envelope (instead of the next_command() queue).
  std::function<void(schedrig::v1::Envelope env)> on_command;
  // An Error the connection answers a bad host message with (instead of
  // stamp() with this LinkState's stamper).
  std::function<void(schedrig::v1::Envelope env)> answer;
};

class LinkState {
 public:
  explicit LinkState(AgentIdentity identity, LinkHooks hooks = {})
      : stamper_(std::move(identity)), hooks_(std::move(hooks)) {}

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
  // acked_seq() (and goes to hooks.on_ack); anything else goes to
  // hooks.on_command, or is queued for next_command() (an Abort also sets
  // the abort flag).
  void take(schedrig::v1::Envelope env);

  // Sends an Error answering a bad host message: through hooks.answer, or
  // stamped and handed to `queue` like stamp(). Nothing once closed.
  void answer(schedrig::v1::Envelope env, const std::function<void(std::string bytes)>& queue);

  std::optional<schedrig::v1::Envelope> next_command(std::chrono::milliseconds timeout);
  bool wait_acked(std::uint64_t seq, std::chrono::milliseconds timeout);
  std::uint64_t acked_seq() const;

  // Records the end of the link once (later calls change nothing) and wakes
  // every waiter. The abort flag is left alone: a dropped link does not stop
  // a run (docs/architecture.md "Agent": the spool keeps its envelopes).
  void mark_closed(const std::string& reason, LinkEnd end);
  bool closed() const;
  bool closed_cleanly() const;
  bool refused() const;  // closed with LinkEnd::kRefused
  std::string close_reason() const;
  std::atomic<bool>& abort_flag() { return abort_; }

 private:
  EnvelopeStamper stamper_;
  LinkHooks hooks_;
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
