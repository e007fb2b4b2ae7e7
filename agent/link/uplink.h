// The agent's link that loses nothing (docs/architecture.md "Agent", "Spool",
// issue #13): every agent->host envelope is stamped and appended to the
// spool (agent/spool/spool.h) under one lock, so seq order = spool order =
// wire order, and goes to the wire from there. A connection thread dials the
// host, reconnects with jittered backoff (backoff.h) while the process
// lives, first replays each older instance's unacked envelopes on its own
// `?replay=1` connection, then opens the live connection: this instance's
// Hello (the same envelope every time), its unacked envelopes from the
// spool, then new ones as they are sent. Acks free the spool. A dropped link
// never stops a run; only the host's Abort (or the caller's stop) does.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "agent/link/backoff.h"
#include "agent/link/host_link.h"
#include "agent/spool/spool.h"
#include "common/envelope_stamp.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::link {

class Connection;
class LinkState;

struct UplinkOptions {
  std::string url;  // ws:// or wss://HOST:PORT/PATH
  LinkSecurity security;
  std::chrono::milliseconds connect_timeout{10000};  // one attempt
  // Total time without a live link before the uplink gives up; 0 = never.
  std::chrono::milliseconds give_up_after{0};
  std::chrono::milliseconds silence_limit = kHostSilenceLimit;  // then: reconnect
  BackoffPolicy backoff;
  std::uint64_t backoff_seed = std::random_device{}();
  // Envelopes written to a connection ahead of the host's acks while
  // replaying; a replay connection waits this long for its last Ack.
  std::uint64_t replay_window = 2000;
  std::chrono::milliseconds replay_ack_timeout{30000};
  // A send stalled on a full spool gives up (the envelope is lost, loudly)
  // only once this is set; may be null.
  const std::atomic<bool>* stop = nullptr;
};

// How the uplink ended (kOpen while it still runs or retries).
enum class UplinkEnd {
  kOpen,
  kHostClosed,      // the host closed the live connection with 1000: the session is over
  kRefused,         // a 401/403/404 on the upgrade, a 1008 close, an unusable URL or CA
  kNeverConnected,  // give_up_after passed and no live connection was ever made
  kLost,            // give_up_after passed after the link was lost
  kClosed,          // close() was called
};

class Uplink {
 public:
  // The uplink of instance `id`, over `spool` (which must outlive it).
  Uplink(UplinkOptions options, AgentIdentity id, spool::Spool& spool);
  ~Uplink();  // close()
  Uplink(const Uplink&) = delete;
  Uplink& operator=(const Uplink&) = delete;

  // Starts the connection thread, then stamps and spools `hello` (seq 1:
  // resent as is on every live connection) and `topology`. Call once, first.
  void start(schedrig::v1::Envelope hello, schedrig::v1::Envelope topology);

  // Stamps (next seq), spools, and when the live connection is caught up
  // queues `env` to the wire, under one lock. Returns its seq; 0 for a
  // Sample the full spool dropped (counted per run: dropped_samples) or an
  // envelope lost because the stop flag was set while the spool stayed
  // full. Anything else finding the spool full waits for acks in 1 s slices,
  // logging "stalled: spool full (N MiB unacked); waiting for the host's
  // acks" once and once when it resumes. Thread-safe.
  std::uint64_t send(schedrig::v1::Envelope env);

  // The next command from the live connection (not Ack), waiting up to
  // `timeout`; nullopt on timeout or once the uplink ended.
  std::optional<schedrig::v1::Envelope> next_command(std::chrono::milliseconds timeout);

  // Waits up to `timeout` for the host's Ack of `seq`, only while the live
  // link is up: false at once when it is down (the spool keeps the
  // envelope), or on timeout.
  bool wait_acked(std::uint64_t seq, std::chrono::milliseconds timeout);

  bool live() const;  // the live connection is up (maybe still replaying)
  UplinkEnd end() const;
  // Why it ended: "host closed the connection (1000 ...)", "host refused this
  // agent: host closed the connection (1008 ...)", "host at URL refused the
  // agent's token (401 Unauthorized)", "giving up after 30 s: REASON".
  std::string end_reason() const;

  // Raised by the host's Abort (and by a 1000 close: the session is over);
  // the runner watches it. The caller resets it between runs.
  std::atomic<bool>& abort_flag() { return abort_; }

  std::uint64_t dropped_samples(const std::string& run_id) const;
  const AgentIdentity& identity() const { return id_; }

  // Stops the connection thread, closing the live connection with 1000.
  void close();

 private:
  struct Attempt;
  void run();
  Attempt attempt();
  void replay_older();
  // Envelopes the spool holds unacknowledged, every instance (the live
  // upgrade's kSpoolBacklogHeader).
  std::uint64_t spool_backlog() const;
  void replay_instance(const spool::PendingInstance& p);
  std::string wait_for_hello();
  Attempt serve_live(const std::string& hello);
  bool catch_up(LinkState& state, Connection& conn);
  bool sleep_for(std::chrono::milliseconds d);
  std::uint64_t append(schedrig::v1::Envelope& env, bool wait_for_room);
  void answer(schedrig::v1::Envelope env);
  void on_ack(std::uint64_t seq);
  void on_command(schedrig::v1::Envelope env);
  void set_live(bool live);
  void finish(UplinkEnd end, std::string reason);
  bool closing() const;

  UplinkOptions options_;
  AgentIdentity id_;
  spool::Spool& spool_;
  std::string hello_bytes_;  // this instance's Hello as sent on every live connection; send_mu_
  std::set<std::string> skipped_;  // older instances not replayed (warned once); thread only
  int connections_ = 0;            // live connections made; thread only

  std::mutex send_mu_;  // stamp + append + queue; before state_mu_
  std::uint64_t last_seq_ = 0;
  Connection* live_conn_ = nullptr;  // set once caught up
  bool stalled_ = false;

  mutable std::mutex state_mu_;
  std::condition_variable state_cv_;
  std::deque<schedrig::v1::Envelope> commands_;
  std::uint64_t acked_ = 0;
  bool live_ = false;
  bool closing_ = false;
  UplinkEnd end_ = UplinkEnd::kOpen;
  std::string end_reason_;
  std::atomic<bool> abort_{false};
  std::thread thread_;
};

}  // namespace schedrig::link
