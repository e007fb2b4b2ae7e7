// One accepted socket (docs/architecture.md "Server"): an optional TLS
// handshake, then HTTP requests. Each request's headers are read first (with
// the header limit), routed and authenticated from them alone: 404, 401,
// 403, 413 (a Content-Length over the body limit) and 411 (any
// Transfer-Encoding: no chunked bodies) are answered without reading the
// body, and then the connection closes if a body was announced.
// Only an authorized request's body is read. Then a WebSocket upgrade on
// /agent goes to the AgentEndpoint with the stream, /api/v1/... to the
// ApiHandler (keep-alive: the next request is read once the handler's
// answer is written). Deadlines (ServerOptions): auth_timeout from accept
// until a request is authorized (TLS handshake and headers, however slowly
// they trickle in), body_timeout for a body, keep_alive_timeout between
// requests once authorized. A pending connection holds a PendingTicket
// until its first authorized request. Closing, the connection answers,
// half-closes and discards what the peer still sends for a short while (so
// the answer is not lost to a reset). Everything runs on the connection's
// own strand (the socket's executor). Stream is PlainStream or TlsStream
// (agent_endpoint.h); both are instantiated in connection.cpp.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>

#include "host/server/agent_endpoint.h"
#include "host/server/connection_tracker.h"
#include "host/server/pending_peers.h"
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
             ConnectionSlot slot, PendingTicket pending);

  // Starts the handshake (TLS) or the first read, on the strand.
  void run();
  // Closes the socket (an API request in progress is answered into the void).
  void stop() override;

 private:
  void on_handshake(boost::beast::error_code ec);
  // Reads the next request's headers, by the auth deadline until one request
  // was authorized, then within keep_alive_timeout.
  void do_read();
  void on_header(boost::beast::error_code ec);
  void on_read_error(boost::beast::error_code ec);
  // Routes and authorizes the headers just read; reads the body only then.
  void handle_header();
  // Answers `Expect: 100-continue` with 100 Continue first.
  void read_body(auth::Principal principal);
  void read_body_now(auth::Principal principal);
  void dispatch(auth::Principal principal);
  void serve_agent(Request request, auth::Principal principal);
  void serve_api(Request request, auth::Principal principal);
  void refuse(const Authorization& denied);
  // An answer of the server's own to the request being read: keeps the
  // connection only when `keep_alive` and no body is left unread.
  void answer(boost::beast::http::status status, std::string_view text, bool keep_alive);
  // Writes `response`; then reads the next request, or shuts down when the
  // response says close.
  void respond(Response response);
  void do_shutdown();
  // Half-closes, then discards what the peer still sends (at most a while
  // and a number of bytes) before closing.
  void on_shutdown();
  void linger(std::size_t discarded);

  Stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  std::shared_ptr<const ServerContext> context_;
  ConnectionSlot slot_;
  PendingTicket pending_;  // released by the first authorized request; eviction stops this
  std::string peer_;
  std::chrono::steady_clock::time_point auth_deadline_;
  bool authorized_ = false;  // a request on it passed the token check
  bool handed_off_ = false;  // the stream went to an agent session
  bool stopped_ = false;
};

}  // namespace schedrig::server
