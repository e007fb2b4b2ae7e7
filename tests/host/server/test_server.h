// A whole server on 127.0.0.1:<ephemeral> for tests: tokens for agents box1
// and box2 and operator alice, an in-memory store, the collector, a
// listener, one I/O thread; and synchronous clients (HTTP, WebSocket, plain
// or TLS) as agents and operators, well-behaved or not, would be.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "common/auth/token_set.h"
#include "common/envelope_codec.h"
#include "host/collector/collector.h"
#include "host/server/listener.h"
#include "host/store/store.h"

namespace schedrig::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

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

// A client TLS context that trusts `ca_file` and checks the host name.
inline std::shared_ptr<asio::ssl::context> client_context(const std::string& ca_file) {
  auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
  ctx->load_verify_file(ca_file);
  ctx->set_verify_mode(asio::ssl::verify_peer);
  return ctx;
}

// A synchronous WebSocket agent on `Next` (beast::tcp_stream or
// beast::ssl_stream<beast::tcp_stream>): connects, upgrades with `token`
// ("" = no Authorization) and keeps the upgrade's response.
template <class Next>
class BasicAgentClient {
 public:
  BasicAgentClient(unsigned short port, const std::string& token, asio::ssl::context* tls = nullptr,
                   const std::string& target = "/agent")
      : ws_(make_next(tls)) {
    tcp::resolver resolver(ioc_);
    beast::get_lowest_layer(ws_).connect(resolver.resolve("127.0.0.1", std::to_string(port)));
    if constexpr (!std::is_same_v<Next, beast::tcp_stream>) {
      ws_.next_layer().set_verify_callback(asio::ssl::host_name_verification("127.0.0.1"));
      ws_.next_layer().handshake(asio::ssl::stream_base::client);
    }
    ws_.binary(true);
    ws_.read_message_max(64 << 20);
    if (!token.empty()) {
      ws_.set_option(websocket::stream_base::decorator([token](websocket::request_type& req) {
        req.set(http::field::authorization, "Bearer " + token);
      }));
    }
    ws_.handshake("127.0.0.1", target, error_);
  }
  // The upgrade failed (error(); upgrade_status() tells the HTTP status) or succeeded.
  const beast::error_code& error() const { return error_; }

  void send_bytes(const std::string& bytes) { ws_.write(asio::buffer(bytes)); }
  void send(const v1::Envelope& env) { send_bytes(encode_envelope(env)); }
  // The next message; an empty Envelope and `ec` set when the link ended.
  v1::Envelope read(beast::error_code& ec) {
    beast::flat_buffer buf;
    ws_.read(buf, ec);
    if (ec) return {};
    auto r = decode_envelope(beast::buffers_to_string(buf.data()));
    return r.envelope.value_or(v1::Envelope{});
  }
  v1::Envelope read() {
    beast::error_code ec;
    v1::Envelope env = read(ec);
    if (ec) throw beast::system_error(ec);
    return env;
  }
  websocket::stream<Next>& ws() { return ws_; }

 private:
  Next make_next(asio::ssl::context* tls) {
    if constexpr (std::is_same_v<Next, beast::tcp_stream>) {
      (void)tls;
      return Next(ioc_);
    } else {
      return Next(ioc_, *tls);
    }
  }

  asio::io_context ioc_;
  websocket::stream<Next> ws_;
  beast::error_code error_;
};

using AgentClient = BasicAgentClient<beast::tcp_stream>;
using TlsAgentClient = BasicAgentClient<beast::ssl_stream<beast::tcp_stream>>;

struct HttpResult {
  unsigned status = 0;
  std::string body;
  std::string www_authenticate;
  std::string content_type;
  beast::error_code error;  // set when no response came
};

// One HTTP request on a new connection; `token` "" = no Authorization;
// `upgrade`: with the headers of a WebSocket upgrade.
inline HttpResult http_request(unsigned short port, http::verb method, const std::string& target,
                               const std::string& token, const std::string& body = "",
                               asio::ssl::context* tls = nullptr, bool upgrade = false) {
  asio::io_context ioc;
  tcp::resolver resolver(ioc);
  auto endpoints = resolver.resolve("127.0.0.1", std::to_string(port));
  http::request<http::string_body> req(method, target, 11);
  req.set(http::field::host, "127.0.0.1");
  if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
  if (upgrade) {
    req.set(http::field::connection, "Upgrade");
    req.set(http::field::upgrade, "websocket");
    req.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
    req.set(http::field::sec_websocket_version, "13");
  }
  req.body() = body;
  req.prepare_payload();
  HttpResult out;
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  auto exchange = [&](auto& stream) {
    http::write(stream, req, out.error);
    if (!out.error) http::read(stream, buf, res, out.error);
  };
  if (tls) {
    beast::ssl_stream<beast::tcp_stream> s(ioc, *tls);
    beast::get_lowest_layer(s).connect(endpoints);
    s.handshake(asio::ssl::stream_base::client);
    exchange(s);
  } else {
    beast::tcp_stream s(ioc);
    s.connect(endpoints);
    exchange(s);
  }
  out.status = res.result_int();
  out.body = res.body();
  out.www_authenticate = std::string(res[http::field::www_authenticate]);
  out.content_type = std::string(res[http::field::content_type]);
  return out;
}

// The status of a WebSocket upgrade on /agent with `token` (101 = accepted).
inline unsigned upgrade_status(unsigned short port, const std::string& token,
                               asio::ssl::context* tls = nullptr) {
  return http_request(port, http::verb::get, "/agent", token, "", tls, true).status;
}

// An agent->host envelope of `agent` with its instance "inst-AGENT".
inline v1::Envelope stamped(const std::string& agent, std::uint64_t seq,
                            const std::string& instance = "") {
  v1::Envelope env;
  env.set_protocol_version(kProtocolVersion);
  env.set_agent_id(agent);
  env.set_instance_id(instance.empty() ? "inst-" + agent : instance);
  env.set_boot_id("boot");
  env.set_seq(seq);
  return env;
}

inline v1::Envelope hello(const std::string& agent, std::uint64_t seq,
                          const std::string& instance = "") {
  v1::Envelope env = stamped(agent, seq, instance);
  env.mutable_hello()->set_hostname(agent + ".lab");
  return env;
}

}  // namespace schedrig::testing
