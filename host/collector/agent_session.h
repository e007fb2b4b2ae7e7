// One agent's WebSocket (docs/architecture.md "Wire protocol", "Server"),
// after the server authenticated its upgrade: one read loop, one write
// queue, a liveness timer, all on the connection's own strand. Each binary
// message is decoded and checked (session_rules.h); a Hello first claims the
// agent id (session_registry.h); envelopes go to the store writer and are
// acked only after the commit. A violation gets an Error and a close with
// 1008; a store that fails gets ERROR_INTERNAL and 1011. A ping goes out
// every ping_interval and the session closes after idle_timeout without
// any frame from the peer. A replay session (`/agent?replay=1`,
// replay_target.h) keeps the same rules but claims no id and is never live:
// no on_hello, on_closed with agent_id "". stop() (the server stopping)
// closes with 1001 going away when SessionServices::going_away is set
// (serve: agents reconnect), else 1000 (lab: the agent exits). Stream is
// server::PlainStream or TlsStream; both are instantiated in
// agent_session.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket/stream.hpp>

#include "host/collector/agent_channel.h"
#include "host/collector/events.h"
#include "host/collector/log_budget.h"
#include "host/collector/session_registry.h"
#include "host/collector/session_rules.h"
#include "host/collector/store_writer.h"
#include "host/server/agent_endpoint.h"
#include "host/server/connection_tracker.h"
#include "host/server/rate_limited_log.h"

namespace schedrig::collector {

// What every session of one collector shares; outlives them (shared_ptr).
struct SessionServices {
  CollectorEvents& events;
  StoreWriter& writer;
  std::shared_ptr<SessionRegistry> registry;
  // "connected" lines: at most one a second for all sessions together.
  std::shared_ptr<server::RateLimitedLog> connected_lines =
      std::make_shared<server::RateLimitedLog>(std::chrono::seconds(1));
  // Set: stop() closes with 1001 going away instead of 1000 (serve's shutdown).
  std::shared_ptr<std::atomic<bool>> going_away = std::make_shared<std::atomic<bool>>(false);
};

template <class Stream>
class AgentSession : public AgentChannel,
                     public RegisteredSession,
                     public server::Stoppable,
                     public std::enable_shared_from_this<AgentSession<Stream>> {
 public:
  AgentSession(Stream&& stream, server::AgentUpgrade upgrade,
               std::shared_ptr<SessionServices> services);

  // Answers the upgrade and starts reading. Once.
  void run();

  void send(schedrig::v1::Envelope env) override;
  void close() override;
  const std::string& peer() const override { return peer_; }
  const std::string& agent_id() const override { return agent_id_; }
  const std::string& instance_id() const override { return ledger_.instance_id; }
  std::optional<std::uint64_t> spool_backlog() const override { return spool_backlog_; }

  void probe(std::chrono::milliseconds timeout, std::function<void(bool)> answer) override;
  void replace(const std::string& why) override;
  void stop() override;

 private:
  using Envelope = schedrig::v1::Envelope;
  using CloseCode = boost::beast::websocket::close_code;

  void on_accept(boost::beast::error_code ec);
  void maybe_read();
  void on_read(boost::beast::error_code ec);
  void on_frame(boost::beast::websocket::frame_type kind);
  void heard_from_peer();
  void handle_message(std::string bytes);
  // A frame answered with an Error (the session goes on): one warn line per
  // 5 s at most, however fast they come.
  void warn_bad_frame(const std::string& what);
  void claim_id(std::shared_ptr<const Envelope> hello, std::string bytes);
  void on_claim(bool accepted, const std::string& why, std::shared_ptr<const Envelope> hello,
                std::string bytes);
  void submit(std::shared_ptr<const Envelope> env, std::string bytes);
  // A Log without a run over the session's budget (log_budget.h): taken
  // and acked, never stored; the first drop is logged, the count at the end.
  bool drop_runless_log(const Envelope& env);
  // Acks a dropped envelope's seq once everything before it is committed.
  void ack_dropped(std::uint64_t seq);
  void retry_held();
  void on_written(const std::shared_ptr<const Envelope>& env, const WriteOutcome& outcome);
  // Writer thread: queues an outcome for the strand (one post per burst).
  void deliver(std::shared_ptr<const Envelope> env, WriteOutcome outcome);
  // Strand: handles every delivered outcome, then sends the Ack.
  void drain_outcomes();
  // Sends the Ack owed (if any): cumulative, so one covers every envelope
  // of its instance stored up to its seq.
  void flush_ack();
  // Queues `env` for writing, stamped; on the strand.
  void enqueue(Envelope env);
  void reply_error(schedrig::v1::ErrorCode code, const std::string& message, std::uint64_t seq);
  // Error envelope, warn log, close with 1008; nothing more is read or stored.
  // `message` is what the peer is told; `log_detail` (if not "") what the
  // host's log says instead (it may name the store or other agents).
  void violation(schedrig::v1::ErrorCode code, const std::string& message, std::uint64_t seq,
                 const std::string& log_detail = "");
  void close_with(CloseCode code, const std::string& reason);
  void do_write();
  void on_write(boost::beast::error_code ec);
  void do_close();
  void log_connected();
  // Closes with 1008 when no Hello came within timing.hello_timeout.
  void start_hello_deadline();
  void schedule_tick();
  void on_tick();
  void end_probes(bool alive);
  // Ends the session once: logs `reason` at `log_level` (spdlog level name),
  // frees its id and slot; on_closed follows once its writes are done.
  void finish(const std::string& reason, const char* log_level = "info");
  void report_closed_when_drained();

  boost::beast::websocket::stream<Stream> ws_;
  boost::beast::flat_buffer buffer_;
  server::AgentUpgrade upgrade_;
  std::shared_ptr<SessionServices> services_;
  const std::string peer_;
  const std::string agent_id_;
  const bool replay_;  // `?replay=1`: store and ack only (replay_target.h)
  const std::optional<std::uint64_t> spool_backlog_;  // the upgrade's header (replay_target.h)
  SessionLedger ledger_;  // the Hello's instance and the last seq taken (session_rules.h)
  server::RateLimitedLog bad_frames_;
  boost::asio::steady_timer tick_;
  boost::asio::steady_timer probe_timer_;
  boost::asio::steady_timer hello_timer_;
  std::chrono::steady_clock::time_point last_heard_;
  std::deque<std::string> write_queue_;
  std::vector<std::function<void(bool)>> probes_;
  struct Delivered {
    std::shared_ptr<const Envelope> env;
    WriteOutcome outcome;
  };
  std::mutex delivered_mu_;           // the writer thread's side
  std::vector<Delivered> delivered_;  // guarded by delivered_mu_
  std::vector<Delivered> draining_;   // the strand's side (capacity reused)
  std::string ack_instance_;          // the Ack owed: instance and seq
  std::uint64_t ack_seq_ = 0;         // 0: none owed
  std::uint64_t dropped_seq_ = 0;     // a dropped Log's seq to ack once writes drain
  RunlessLogBudget runless_logs_;
  std::optional<WriteItem> held_;   // refused by a full writer queue: retried on room
  std::size_t pending_writes_ = 0;  // submitted, outcome not back yet
  bool claiming_ = false;           // the Hello waits for the registry: reading waits too
  bool open_ = false;               // the WebSocket handshake completed
  bool read_in_flight_ = false;
  bool ping_in_flight_ = false;
  bool close_requested_ = false;  // close once the write queue drains
  bool closing_ = false;          // async_close started
  bool refusing_ = false;         // a violation or a store failure: nothing more is taken
  bool finished_ = false;
  bool closed_reported_ = false;
  CloseCode close_code_ = CloseCode::normal;
  std::string close_reason_;  // why the host closed, for the log
  std::string end_reason_;    // what on_closed says
};

}  // namespace schedrig::collector
