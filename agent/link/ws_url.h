// WebSocket URLs the agent dials: ws://HOST:PORT/PATH (RFC 6455 section 3).
#pragma once

#include <stdexcept>
#include <string>

namespace schedrig::link {

struct WsUrl {
  std::string host;  // name or address; IPv6 without brackets
  std::string port;  // decimal, default "80"
  std::string path;  // starts with '/', default "/agent"
};

// Parses `url`. Throws std::invalid_argument naming the URL and what is
// wrong (scheme other than ws://, empty host, bad port).
WsUrl parse_ws_url(const std::string& url);

}  // namespace schedrig::link
