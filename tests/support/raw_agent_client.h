// A raw agent for tests that play one: a synchronous WebSocket client (ws or
// wss) that upgrades on /agent with an optional token and sends whatever
// envelopes a test makes, well-formed or hostile, and reads the replies until
// the host closes; and one-shot HTTP requests. Header-only (Boost.Beast,
// OpenSSL); link schedrig_common (envelope codec) and OpenSSL::SSL.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "common/envelope_codec.h"

namespace schedrig::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

// What a raw agent got back before the link ended.
struct AgentReplies {
  std::vector<v1::Envelope> envelopes;  // every message read, in order
  websocket::close_code code{};         // the close frame's code (none: 0)
  std::string reason;                   // the close frame's reason
  beast::error_code error;              // how the read ended (websocket::error::closed...)
  bool has_error_reply() const {
    for (const auto& e : envelopes)
      if (e.has_error()) return true;
    return false;
  }
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
// A client stream on `ioc`: a plain beast::tcp_stream, or a TLS stream on
// `tls` (which must then be set).
template <class Next>
Next make_stream(asio::io_context& ioc, asio::ssl::context* tls) {
  if constexpr (std::is_same_v<Next, beast::tcp_stream>) {
    (void)tls;
    return Next(ioc);
  } else {
    return Next(ioc, *tls);
  }
}

template <class Next>
class BasicAgentClient {
 public:
  BasicAgentClient(unsigned short port, const std::string& token, asio::ssl::context* tls = nullptr,
                   const std::string& target = "/agent")
      : ws_(make_stream<Next>(ioc_, tls)) {
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
  // Reads until the link ends (at most `max_messages`): what came back.
  AgentReplies read_until_closed(int max_messages = 100) {
    AgentReplies out;
    for (int i = 0; i < max_messages && !out.error; ++i) {
      v1::Envelope env = read(out.error);
      if (!out.error) out.envelopes.push_back(std::move(env));
    }
    out.code = static_cast<websocket::close_code>(ws_.reason().code);
    out.reason = std::string(ws_.reason().reason.c_str());
    return out;
  }
  websocket::stream<Next>& ws() { return ws_; }

 private:
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
