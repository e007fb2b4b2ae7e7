// The bytes side of the agent's link: one WebSocket connection to the host,
// over TCP (ws://) or TLS (wss://: SNI, the peer's chain and its host name
// verified). One code path for both: a template on the stream type behind
// this interface. After the handshake one I/O thread runs the read loop and
// a single write queue on a strand (the Boost.Beast websocket client
// pattern); decoded envelopes go to the LinkState.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "agent/link/host_link.h"
#include "agent/link/link_state.h"
#include "agent/link/ws_url.h"

namespace schedrig::link {

// How long the agent waits for the host's answer to its close frame.
constexpr std::chrono::seconds kCloseTimeout{5};

class Connection {
 public:
  virtual ~Connection() = default;
  // Queues one encoded envelope for the write queue. Thread-safe.
  virtual void write(std::string bytes) = 0;
  // Sends a normal close frame (if open), waits at most kCloseTimeout for
  // the host's answer, and joins the I/O thread. Idempotent.
  virtual void close() = 0;
};

// Resolves, connects, (for wss) completes the TLS handshake, and upgrades
// with "Authorization: Bearer TOKEN" when `security.token` is set, all
// within `timeout`; then starts the I/O thread. Throws LinkError:
// kUnreachable naming the URL and the reason ("cannot reach URL: TLS
// handshake: certificate verify failed: ..."), kUsage for an unusable CA
// file or a 401/403 answer ("host at URL refused the agent's token (401
// Unauthorized)"). Once connected, `silence_limit` without a message, ping or
// pong from the host marks the link lost and closes the socket.
// `spool_backlog` (the live connection's): sent as kSpoolBacklogHeader.
std::unique_ptr<Connection> open_connection(LinkState& state, const WsUrl& url,
                                            const LinkSecurity& security,
                                            std::chrono::milliseconds timeout,
                                            std::chrono::milliseconds silence_limit,
                                            std::optional<std::uint64_t> spool_backlog = {});

}  // namespace schedrig::link
