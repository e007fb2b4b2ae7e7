#include "agent/link/ws_url.h"

#include <fmt/format.h>

#include "common/parse_whole.h"

namespace schedrig::link {
namespace {

// The scheme's length and whether it is wss; throws when it is neither.
std::size_t parse_scheme(const std::string& url, WsUrl& out) {
  if (url.rfind("ws://", 0) == 0) return 5;
  if (url.rfind("wss://", 0) == 0) {
    out.tls = true;
    return 6;
  }
  throw std::invalid_argument(fmt::format("URL '{}': must start with ws:// or wss://", url));
}

}  // namespace

WsUrl parse_ws_url(const std::string& url) {
  WsUrl out;
  std::string rest = url.substr(parse_scheme(url, out));
  auto slash = rest.find('/');
  out.path = slash == std::string::npos ? "/agent" : rest.substr(slash);
  std::string authority = rest.substr(0, slash);
  std::string::size_type colon;
  if (!authority.empty() && authority.front() == '[') {  // [v6]:port
    auto close = authority.find(']');
    if (close == std::string::npos)
      throw std::invalid_argument(fmt::format("URL '{}': unclosed '['", url));
    out.host = authority.substr(1, close - 1);
    colon = authority.find(':', close);
  } else {
    colon = authority.rfind(':');
    out.host = authority.substr(0, colon);
  }
  out.port = colon == std::string::npos ? (out.tls ? "443" : "80") : authority.substr(colon + 1);
  const auto port = try_parse_whole<int>(out.port);
  if (out.host.empty()) throw std::invalid_argument(fmt::format("URL '{}': no host", url));
  if (!port || *port < 1 || *port > 65535) {
    throw std::invalid_argument(
        fmt::format("URL '{}': port '{}' is not in 1..65535", url, out.port));
  }
  return out;
}

std::string host_header(const WsUrl& u) {
  const bool v6 = u.host.find(':') != std::string::npos;
  return (v6 ? "[" + u.host + "]" : u.host) + ":" + u.port;
}

}  // namespace schedrig::link
