// The agent's WebSocket link to the host collector (docs/architecture.md "Wire
// protocol", "Control plane"): ws:// or wss://, the agent's token on the
// upgrade, binary messages, one Envelope each. One I/O thread runs a read
// loop and a single write queue on a strand (ws_connection.h); callers on
// other threads queue envelopes and take commands from a queue
// (link_state.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/envelope_stamp.h"
#include "common/error.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::link {

// The host could not be reached, or the link is closed: kind() is
// ErrorKind::kUnreachable (exit 3), or kUsage (exit 2) for a malformed URL
// or a token the host refuses
// (common/error.h). what() names the URL and the reason ("cannot reach
// ws://h:7878/agent: Connection refused").
class LinkError : public schedrig::Error {
 public:
  using schedrig::Error::Error;
};

using schedrig::AgentIdentity;

// How long the link waits without hearing anything from the host (a message,
// a ping, a pong) before it closes as lost: the host pings every 15 s, so
// three missed pings mean a silent host (a black-hole proxy, a dead box).
constexpr std::chrono::seconds kHostSilenceLimit{45};

// How the agent proves who it is and whom it trusts.
struct LinkSecurity {
  std::string token;    // sent as "Authorization: Bearer TOKEN" on the upgrade; "" = none
  std::string ca_file;  // wss: PEM CA certificates to trust; "" = the system's trust store
};

class HostLink {
 public:
  explicit HostLink(AgentIdentity identity);
  ~HostLink();  // closes the link and joins the I/O thread
  HostLink(const HostLink&) = delete;
  HostLink& operator=(const HostLink&) = delete;

  // Resolves, connects, for wss:// completes the TLS handshake (SNI; the
  // host's chain verified against `security.ca_file` and its certificate
  // checked for the URL's host), and upgrades to WebSocket sending the
  // token, all within `timeout`; then starts the I/O thread. Throws
  // LinkError: kUsage for a malformed URL, an unusable CA file or a
  // token the host refuses (a 401/403 on the upgrade: "host at URL refused
  // the agent's token (401 Unauthorized)"), kUnreachable otherwise.
  // Once connected, `silence_limit` without anything from the host closes
  // the link as lost ("nothing from the host for 45 s").
  void connect(const std::string& url, std::chrono::milliseconds timeout,
               const LinkSecurity& security = {},
               std::chrono::milliseconds silence_limit = kHostSilenceLimit);

  // Stamps protocol_version, the identity, the next seq (from 1, strictly
  // increasing) and sent_at_ns, and queues `env`. Thread-safe. Returns the
  // seq. Throws LinkError when the link is closed.
  std::uint64_t send(schedrig::v1::Envelope env);

  // The next host->agent envelope other than Ack, waiting up to `timeout`.
  // nullopt on timeout or once the link is closed (see closed()).
  std::optional<schedrig::v1::Envelope> next_command(std::chrono::milliseconds timeout);

  // Waits until the host has acked `seq` (stored it). false on timeout or close.
  bool wait_acked(std::uint64_t seq, std::chrono::milliseconds timeout);

  // Highest seq the host acked so far (0 = none).
  std::uint64_t acked_seq() const;

  bool closed() const;
  // True when the link closed with a normal close (1000) from the host, or
  // by close(); false while open and after any other end (a reset, another
  // close code, an over-size message).
  bool closed_cleanly() const;
  // True when the host closed with 1008 (policy violation): it refused who
  // this agent is or what it sent (docs/architecture.md "Session rules"),
  // e.g. an --id its token was not made for; connecting again would not help.
  bool refused() const;
  // Why the link closed ("host closed the connection (1000 normal)").
  std::string close_reason() const;

  // Becomes true when the host sends Abort (not when the link drops); the
  // runner watches it. The caller resets it between runs.
  std::atomic<bool>& abort_flag();

  // Sends a normal close frame (if open) and stops the I/O thread.
  void close();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace schedrig::link
