#include "host/server/listen_address.h"

#include <fmt/format.h>

#include "common/parse_whole.h"

namespace schedrig::server {

namespace asio = boost::asio;

asio::ip::tcp::endpoint parse_listen_address(const std::string& text) {
  auto colon = text.rfind(':');
  if (colon == std::string::npos) {
    throw ServerError(
        ErrorKind::kUsage,
        fmt::format("listen address '{}': want ADDR:PORT, e.g. 127.0.0.1:7878", text));
  }
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  std::string port_text = text.substr(colon + 1);
  const auto port = try_parse_whole<unsigned>(port_text);
  if (!port || *port > 65535) {
    throw ServerError(
        ErrorKind::kUsage,
        fmt::format("listen address '{}': port '{}' is not in 0..65535", text, port_text));
  }
  boost::system::error_code bad;
  auto addr = asio::ip::make_address(host, bad);
  if (bad) {
    throw ServerError(ErrorKind::kUsage,
                      fmt::format("listen address '{}': '{}' is not an IP address", text, host));
  }
  return {addr, static_cast<unsigned short>(*port)};
}

std::string endpoint_text(const asio::ip::tcp::endpoint& endpoint) {
  const std::string addr = endpoint.address().to_string();
  return endpoint.address().is_v6() ? fmt::format("[{}]:{}", addr, endpoint.port())
                                    : fmt::format("{}:{}", addr, endpoint.port());
}

}  // namespace schedrig::server
