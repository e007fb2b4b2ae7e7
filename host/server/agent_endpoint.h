// Where the server hands an authenticated WebSocket upgrade on /agent
// (docs/architecture.md "Server"): the collector implements it. The server
// knows HTTP, TLS and tokens; the endpoint knows envelopes.
#pragma once

#include <string>

#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "common/auth/token_set.h"
#include "host/server/connection_tracker.h"
#include "host/server/pending_peers.h"
#include "host/server/server_options.h"

namespace schedrig::server {

// The two transports a connection can have: one code path, two instantiations.
using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;

// An upgrade request that passed the token check for the agent role.
struct AgentUpgrade {
  boost::beast::http::request<boost::beast::http::string_body> request;
  auth::Principal principal;  // role agent; name = the agent id it may speak for
  std::string peer;           // "127.0.0.1:5555"
  ConnectionSlot slot;        // keeps counting against max_connections
  SessionTiming timing;
  // Still pending (pending_peers.h) until the session's Hello is accepted,
  // so sockets that never say Hello count against the per-peer cap.
  PendingTicket pending;
};

class AgentEndpoint {
 public:
  virtual ~AgentEndpoint() = default;
  // Takes the stream (its executor is the connection's strand; called on
  // it) and answers the upgrade. Must not block.
  virtual void accept(PlainStream stream, AgentUpgrade upgrade) = 0;
  virtual void accept(TlsStream stream, AgentUpgrade upgrade) = 0;
};

}  // namespace schedrig::server
