#include "agent/link/ws_url.h"
#include "common/parse_whole.h"


#include <fmt/format.h>

namespace schedrig::link {

WsUrl parse_ws_url(const std::string& url) {
  const std::string scheme = "ws://";
  if (url.rfind(scheme, 0) != 0) {
    throw std::invalid_argument(
        fmt::format("URL '{}': must start with ws:// (wss:// comes later)", url));
  }
  std::string rest = url.substr(scheme.size());
  WsUrl out;
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
  out.port = colon == std::string::npos ? "80" : authority.substr(colon + 1);
  const auto port = try_parse_whole<int>(out.port);
  if (out.host.empty()) throw std::invalid_argument(fmt::format("URL '{}': no host", url));
  if (!port || *port < 1 || *port > 65535) {
    throw std::invalid_argument(
        fmt::format("URL '{}': port '{}' is not in 1..65535", url, out.port));
  }
  return out;
}

}  // namespace schedrig::link
