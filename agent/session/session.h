// The agent's session with the host collector (docs/architecture.md "Wire
// protocol"): dial the host, introduce this box (Hello, Topology), then run
// each StartRun it sends, streaming its results, until the host closes the
// link or a stop signal arrives. `schedrig-agent connect` is its command line.
#pragma once

#include <atomic>
#include <chrono>
#include <string>

#include "agent/link/host_link.h"
#include "agent/session/agent_state.h"

namespace schedrig::agent {

struct SessionOptions {
  std::string url;  // ws:// or wss://HOST:PORT/PATH (agent/link/ws_url.h)
  std::string id;   // agent id, a stable name for this box; "" = the hostname
  std::chrono::milliseconds connect_timeout{10000};  // for the TLS and WebSocket handshakes
  link::LinkSecurity security;                       // the agent's token, the CA to trust
  StateOptions state;                                // knob root and journal
};

// Runs one session on this machine's live topology. Returns after closing the
// link, once the host closed it or `stop` became true (checked every 200 ms
// while idle; a plan already running goes on until it ends or the host
// aborts it, and one started after `stop` starts aborted). After each run it
// waits up to 30 s for the host's Ack of the last result. Throws
// schedrig::Error: kUsage for a malformed URL or when the host refuses this
// agent (a 401/403 on the upgrade, or a close with 1008: "host refused this
// agent: host closed the connection (1008 refused: ...)"), kUnreachable when
// another agent holds the state dir (state_lock.h), the host cannot be
// reached or a knob journal cannot be restored, kFailed
// when the link is lost otherwise.
void run_session(const SessionOptions& o, const std::atomic<bool>& stop);

}  // namespace schedrig::agent
