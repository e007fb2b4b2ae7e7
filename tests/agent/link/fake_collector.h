// A fake host collector for the agent's uplink tests: accepts any number of
// WebSocket connections on 127.0.0.1 (one Asio thread), records each
// envelope with its connection and request target ("/agent?replay=1"),
// acks each as it arrives (or not, set_acking), and can cut every
// connection (a reset, no close frame) or close them with a code.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/beast/websocket.hpp>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::testing {

struct Received {
  int connection = 0;  // 1-based, in accept order
  std::string target;  // the upgrade's request target
  schedrig::v1::Envelope env;
};

class FakeCollector {
 public:
  // Listens on `port` (0 = ephemeral; a fixed one is reused at once).
  explicit FakeCollector(unsigned short port = 0);
  ~FakeCollector();  // stops: every connection is reset
  FakeCollector(const FakeCollector&) = delete;
  FakeCollector& operator=(const FakeCollector&) = delete;

  unsigned short port() const;
  std::string url() const;  // ws://127.0.0.1:PORT/agent

  // Ack each envelope as it arrives (default true).
  void set_acking(bool on);
  // Acks, on its connection, the highest seq received per instance so far.
  void ack_all();
  // Resets every open connection (no close frame).
  void cut();
  // Sends a close frame with `code` on every open connection.
  void close_all(boost::beast::websocket::close_code code);
  // Sends `env` on the newest connection.
  void send(schedrig::v1::Envelope env);

  std::vector<Received> received() const;
  // Waits up to `timeout` until `done(received())`; true when it held.
  bool wait_for(const std::function<bool(const std::vector<Received>&)>& done,
                std::chrono::milliseconds timeout) const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// A port that was free a moment ago (bound, then released), for a host
// that comes up later.
unsigned short free_port();

}  // namespace schedrig::testing
