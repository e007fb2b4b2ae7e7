// How a server listens, who it lets in, and its limits
// (docs/architecture.md "Server", "Wire protocol").
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include "common/auth/token_set.h"
#include "host/server/api_handler.h"

namespace schedrig::server {

class AgentEndpoint;

// Liveness of an agent's WebSocket: a ping every `ping_interval`; closed
// after `idle_timeout` without any frame from the peer.
struct SessionTiming {
  std::chrono::milliseconds ping_interval{15'000};
  std::chrono::milliseconds idle_timeout{45'000};
  // From the WebSocket upgrade to the Hello: none by then -> closed 1008.
  std::chrono::milliseconds hello_timeout{10'000};
};

struct ServerOptions {
  boost::asio::ip::tcp::endpoint endpoint;         // port 0 = ephemeral
  std::shared_ptr<boost::asio::ssl::context> tls;  // null = plain TCP
  const auth::TokenSet* tokens = nullptr;          // required; outlives the server
  ApiHandler* api = nullptr;                       // null: /api/v1/... answers 404
  AgentEndpoint* agents = nullptr;                 // null: /agent answers 404
  std::size_t max_connections = 4096;              // over it: accepted and closed at once
  // Connections not authorized yet (pending_peers.h): from one peer group
  // (an IPv4 address, an IPv6 /64), over it accepted and closed at once; in
  // all, over it the oldest pending connection is closed.
  std::size_t max_pending_per_peer = 64;
  std::size_t max_pending = 1024;
  SessionTiming timing;
  std::size_t header_limit = 16 * 1024;  // bytes of request line + headers (431 over it)
  std::size_t body_limit = 1024 * 1024;  // bytes (413 over it)
  // From accept until a request is authorized: the TLS handshake and the
  // request headers (of every request refused before one passes); the
  // connection is closed when it runs out, however slowly bytes come.
  std::chrono::milliseconds auth_timeout{10'000};
  std::chrono::milliseconds body_timeout{30'000};  // an authorized request's body
  // From an answer to the next request's headers on an authorized connection.
  std::chrono::milliseconds keep_alive_timeout{30'000};
};

}  // namespace schedrig::server
