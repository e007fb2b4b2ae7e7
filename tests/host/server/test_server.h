// A whole server on 127.0.0.1:<ephemeral> for tests: tokens for agents box1
// and box2 and operator alice, an in-memory store, the collector, a
// listener, one I/O thread. The clients (raw agents, HTTP requests) are in
// tests/support/raw_agent_client.h.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl.hpp>

#include "common/auth/token_set.h"
#include "host/collector/collector.h"
#include "host/server/listener.h"
#include "host/store/store.h"
#include "tests/support/raw_agent_client.h"

namespace schedrig::testing {

inline const std::string kBox1Token = "token-of-box1";
inline const std::string kBox2Token = "token-of-box2";
inline const std::string kAliceToken = "token-of-alice";

inline auth::TokenSet test_tokens() {
  auth::TokenSet tokens;
  tokens.add(auth::Role::kAgent, "box1", kBox1Token);
  tokens.add(auth::Role::kAgent, "box2", kBox2Token);
  tokens.add(auth::Role::kOperator, "alice", kAliceToken);
  return tokens;
}

// What a test changes from the defaults.
struct TestServerConfig {
  std::shared_ptr<asio::ssl::context> tls{};
  server::ApiHandler* api = nullptr;
  std::size_t max_connections = 64;
  server::SessionTiming timing{};
  collector::CollectorOptions collector{};
  collector::CollectorEvents* events = nullptr;  // null: one that does nothing
  // Any other option (deadlines, pending caps), applied last.
  std::function<void(server::ServerOptions&)> adjust{};
};

class TestServer {
 public:
  explicit TestServer(TestServerConfig config = {})
      : collector_(store, config.events ? *config.events : no_events_, config.collector),
        listener_(ioc_, options(config)) {
    listener_.start();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~TestServer() {
    listener_.stop();
    work_.reset();
    ioc_.stop();
    thread_.join();
  }
  unsigned short port() const { return listener_.local_endpoint().port(); }
  server::Listener& listener() { return listener_; }
  collector::Collector& collector() { return collector_; }

  store::Store store{":memory:"};

 private:
  server::ServerOptions options(const TestServerConfig& c) {
    server::ServerOptions o;
    o.endpoint = {asio::ip::make_address("127.0.0.1"), 0};
    o.tls = c.tls;
    o.tokens = &tokens_;
    o.api = c.api;
    o.agents = &collector_;
    o.max_connections = c.max_connections;
    o.timing = c.timing;
    if (c.adjust) c.adjust(o);
    return o;
  }

  auth::TokenSet tokens_ = test_tokens();
  collector::CollectorEvents no_events_;
  asio::io_context ioc_;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_{
      ioc_.get_executor()};
  collector::Collector collector_;
  server::Listener listener_;
  std::thread thread_;
};

}  // namespace schedrig::testing
