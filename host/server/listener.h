// The server's TCP acceptor (docs/architecture.md "Server"): one port for
// agents (/agent) and operators (/api/v1/...), plain or TLS. Each accepted
// socket gets its own strand and a Connection. At max_connections, or when
// its peer group (an IPv4 address or IPv6 /64) already has
// max_pending_per_peer connections not yet authorized, a new socket is
// accepted and closed at once (the client sees the close now rather than
// hanging in the kernel's backlog), with a rate-limited warning. At
// max_pending in all, the oldest pending connection is closed instead to
// make room for the new one (rate-limited warning too).
// When accept fails for lack of descriptors or memory (EMFILE, ENFILE,
// ENOBUFS, ENOMEM) it waits 100 ms, doubling up to 1 s, before trying again
// (never a busy loop), logging at most one line per 5 s with a count.
// Runs on a caller-owned io_context (any number of threads).
#pragma once

#include <chrono>
#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "host/server/connection.h"
#include "host/server/connection_tracker.h"
#include "host/server/listen_address.h"
#include "host/server/pending_peers.h"
#include "host/server/rate_limited_log.h"
#include "host/server/server_options.h"

namespace schedrig::server {

// An acceptor bound to `endpoint` and listening (port 0 = ephemeral), on a
// strand of `ioc`. Throws ServerError (kUnreachable) naming the address and
// the reason ("cannot listen on 127.0.0.1:7878: bind: Address already in use").
boost::asio::ip::tcp::acceptor listen_on(boost::asio::io_context& ioc,
                                         const boost::asio::ip::tcp::endpoint& endpoint);

class Listener {
 public:
  // Binds and listens at once (listen_on(options.endpoint)). Throws
  // ServerError (kUnreachable) naming the address and the reason;
  // std::invalid_argument without `options.tokens`. `options.tls`, tokens,
  // api and agents must outlive every connection (run the io_context dry first).
  Listener(boost::asio::io_context& ioc, ServerOptions options);
  // On an acceptor from listen_on(ioc, ...) (serve binds before it opens
  // its store); `options.endpoint` is not used.
  Listener(boost::asio::io_context& ioc, ServerOptions options,
           boost::asio::ip::tcp::acceptor acceptor);
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // The bound address (with the real port when 0 was asked for).
  boost::asio::ip::tcp::endpoint local_endpoint() const;
  // Starts accepting.
  void start();
  // Stops accepting and stops every open connection: agents get a normal
  // close (1000) after what is queued for them, HTTP connections are closed.
  // Thread-safe.
  void stop();
  // Connections counted against max_connections (HTTP and agent sessions).
  std::size_t open_connections() const;
  // Connections not authorized yet (all peers).
  std::size_t pending_connections() const;
  // Warning lines written about failing accepts and refused connections.
  std::size_t accept_error_lines() const { return accept_errors_.lines(); }
  std::size_t over_limit_lines() const { return over_limit_.lines(); }
  std::size_t pending_refusal_lines() const { return pending_refusals_.lines(); }
  std::size_t pending_eviction_lines() const { return pending_evictions_.lines(); }

 private:
  void do_accept();
  void on_accept(boost::system::error_code ec, boost::asio::ip::tcp::socket socket);
  void on_accept_error(boost::system::error_code ec);
  void start_connection(boost::asio::ip::tcp::socket socket);
  // A ticket for `socket`'s peer group, or empty after logging the refusal.
  PendingTicket pending_ticket(const boost::asio::ip::tcp::socket& socket);

  boost::asio::io_context& ioc_;
  std::shared_ptr<ServerContext> context_;
  std::shared_ptr<ConnectionTracker> tracker_;
  std::shared_ptr<PendingPeers> pending_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_;
  std::chrono::milliseconds backoff_{0};
  RateLimitedLog accept_errors_;
  RateLimitedLog over_limit_;
  RateLimitedLog pending_refusals_;
  RateLimitedLog pending_evictions_;
};

// True for accept errors that mean the process or system is out of a
// resource (EMFILE, ENFILE, ENOBUFS, ENOMEM): back off before retrying.
bool is_resource_exhaustion(const boost::system::error_code& ec);

// The next wait after `current` (0 = none yet): 100 ms, then doubling, at most 1 s.
std::chrono::milliseconds next_backoff(std::chrono::milliseconds current);

}  // namespace schedrig::server
