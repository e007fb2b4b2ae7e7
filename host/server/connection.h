// One accepted socket (docs/architecture.md "Server"): an optional TLS
// handshake, then HTTP requests read with limits, each authenticated and
// routed: a WebSocket upgrade on /agent goes to the AgentEndpoint with the
// stream, /api/v1/... to the ApiHandler (keep-alive: the next request is
// read once the handler's answer is written), anything else is answered
// here. Everything runs on the connection's own strand (the socket's
// executor). Stream is PlainStream or TlsStream (agent_endpoint.h); both are
// instantiated in connection.cpp.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>

#include "host/server/agent_endpoint.h"
#include "host/server/connection_tracker.h"
#include "host/server/rate_limited_log.h"
#include "host/server/routing.h"
#include "host/server/server_options.h"

namespace schedrig::server {

// What every connection of one server shares; outlives them (shared_ptr).
struct ServerContext {
  explicit ServerContext(ServerOptions o) : options(std::move(o)) {}
  ServerOptions options;
  mutable RateLimitedLog refusals;  // 401/403 answers: one warn line per 5 s
};

// "127.0.0.1:5555", "[::1]:5555", or "unknown peer".
std::string peer_name(const boost::asio::ip::tcp::socket& socket);

template <class Stream>
class Connection : public Stoppable, public std::enable_shared_from_this<Connection<Stream>> {
 public:
  Connection(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<const ServerContext> context,
             ConnectionSlot slot);

  // Starts the handshake (TLS) or the first read, on the strand.
  void run();
  // Closes the socket (an API request in progress is answered into the void).
  void stop() override;

 private:
  void on_handshake(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec);
  void on_read_error(boost::beast::error_code ec);
  void handle(Request request);
  void serve_agent(Request request, auth::Principal principal);
  void serve_api(Request request, auth::Principal principal);
  void refuse(const Request& request, const Authorization& denied);
  // Writes `response`; then reads the next request, or shuts down when the
  // response says close.
  void respond(Response response);
  void do_shutdown();
  void on_shutdown();

  Stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  std::shared_ptr<const ServerContext> context_;
  ConnectionSlot slot_;
  std::string peer_;
  bool handed_off_ = false;  // the stream went to an agent session
  bool stopped_ = false;
};

}  // namespace schedrig::server
