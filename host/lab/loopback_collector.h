// The lab's server: listening on 127.0.0.1 (ephemeral port) with its own
// I/O thread, storing into the lab's store, its events going to a Control
// (which queues and starts the lab's run, docs/architecture.md "Queue") and
// to the lab's own observer. Only the lab's own agent gets in: an in-memory
// token set with one agent token, for the agent id the lab started
// (docs/architecture.md "Server").
#pragma once

#include <string>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "common/auth/token_set.h"
#include "host/collector/collector.h"
#include "host/control/control.h"
#include "host/control/fan_out_events.h"
#include "host/server/listener.h"

namespace schedrig::lab {

// Server on loopback with its I/O thread; stopped on destruction.
// Throws server::ServerError when it cannot listen, schedrig::Error
// (kUsage) for an agent id a token cannot name.
class LoopbackCollector {
 public:
  // `observer` sees every event after the Control does. The Control shares
  // the store with any serve (ControlOptions::shared_store).
  LoopbackCollector(store::Store& store, collector::CollectorEvents& observer,
                    const std::string& agent_id, const std::string& agent_token);
  ~LoopbackCollector();
  LoopbackCollector(const LoopbackCollector&) = delete;
  LoopbackCollector& operator=(const LoopbackCollector&) = delete;

  // Stops accepting and sends every session a normal close.
  void close_sessions();
  // "ws://127.0.0.1:PORT/agent", the URL the agent dials.
  std::string url() const;
  // The control plane the lab submits its run to.
  control::Control& control() { return control_; }

 private:
  auth::TokenSet tokens_;
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{
      ioc_.get_executor()};
  control::Control control_;
  control::FanOutEvents events_;
  collector::Collector collector_;  // calls events_ until destroyed
  server::Listener listener_;
  std::thread thread_;
};

// The id the lab's agent has: this host's name (the agent's default id).
std::string lab_agent_id();

}  // namespace schedrig::lab
