// WebSocket URLs the agent dials: ws://HOST[:PORT][/PATH] and
// wss://HOST[:PORT][/PATH] (RFC 6455 section 3). The port defaults to the
// scheme's (80 for ws, 443 for wss), the path to "/agent".
#pragma once

#include <stdexcept>
#include <string>

namespace schedrig::link {

struct WsUrl {
  bool tls = false;  // wss://
  std::string host;  // name or address; IPv6 without brackets
  std::string port;  // decimal, default "80" (ws) or "443" (wss)
  std::string path;  // starts with '/', default "/agent"
};

// Parses `url`. Throws std::invalid_argument naming the URL and what is
// wrong (scheme other than ws:// or wss://, empty host, bad port).
WsUrl parse_ws_url(const std::string& url);

// The Host header for `u`: "HOST:PORT", an IPv6 address in brackets.
std::string host_header(const WsUrl& u);

}  // namespace schedrig::link
