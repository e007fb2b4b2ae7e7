// The agent's session with the host collector (docs/architecture.md "Wire
// protocol"): dial the host, introduce this box (Hello, Topology), then run
// each StartRun it sends, streaming its results, until the host closes the
// link or a stop signal arrives. `schedrig-agent connect` is its command line.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "agent/boot/kernel_table.h"
#include "agent/link/host_link.h"
#include "agent/session/agent_state.h"

namespace schedrig::agent {

struct SessionOptions {
  std::string url;  // ws:// or wss://HOST:PORT/PATH (agent/link/ws_url.h)
  std::string id;   // agent id, a stable name for this box; "" = the hostname
  std::chrono::milliseconds connect_timeout{10000};  // one attempt's TLS and WebSocket handshakes
  // Time without a live link before giving up (--give-up-after); 0 = never.
  std::chrono::milliseconds give_up_after{0};
  std::uint64_t spool_max_bytes = 256ull << 20;  // --spool-max-mb
  link::LinkSecurity security;                   // the agent's token, the CA to trust
  StateOptions state;                            // knob root, journal, spool, current-run
  boot::KernelTable kernels;                     // the config's kernels: what a Boot may name
  std::vector<std::string> bisect_deny;          // the config's bisect_deny: sent in Hello
};

// Runs one session on this machine's live topology over an uplink
// (agent/link/uplink.h: STATE/spool, reconnecting while the link is down,
// replaying older instances first). Knobs a killed instance left are
// restored first; a run it left unfinished (STATE/current-run) is reported
// failed after Hello and Topology (current_run.h). Returns after closing
// the link, once the host closed it with 1000 or `stop` became true
// (checked every 200 ms while idle; a plan already running goes on until it
// ends or the host aborts it, and one started after `stop` starts aborted;
// a dropped link does not stop it). After each run it waits up to 30 s for
// the host's Ack of the last result while the link is up. Throws
// schedrig::Error: kUsage for a malformed URL or when the host refuses this
// agent (a 401/403/404 on the upgrade, or a close with 1008: "host refused
// this agent: host closed the connection (1008 refused: ...)"), kUnreachable
// when another agent holds the state dir (state_lock.h), a knob journal
// cannot be restored, or give_up_after passed before the host was ever
// reached; kFailed when it passed after the link was lost.
void run_session(const SessionOptions& o, const std::atomic<bool>& stop);

}  // namespace schedrig::agent
