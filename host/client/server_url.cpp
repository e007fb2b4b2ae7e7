#include "host/client/server_url.h"

#include <array>
#include <utility>

#include <fmt/format.h>

#include "common/error.h"
#include "common/parse_whole.h"
#include "common/printable.h"

namespace schedrig::client {
namespace {

// Scheme prefix -> uses TLS.
constexpr std::array<std::pair<const char*, bool>, 4> kSchemes = {
    {{"http://", false}, {"https://", true}, {"ws://", false}, {"wss://", true}}};

Error bad_url(const std::string& url, const std::string& why) {
  return Error(ErrorKind::kUsage, fmt::format("server URL '{}': {}", printable(url), why));
}

// Splits "HOST[:PORT]" or "[V6][:PORT]" into host and port ("" when absent).
std::pair<std::string, std::string> split_authority(const std::string& url,
                                                    const std::string& authority) {
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string::npos) throw bad_url(url, "unclosed '['");
    const std::string rest = authority.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') throw bad_url(url, "junk after ']'");
    return {authority.substr(1, close - 1), rest.empty() ? "" : rest.substr(1)};
  }
  const auto colon = authority.rfind(':');
  if (colon == std::string::npos) return {authority, ""};
  return {authority.substr(0, colon), authority.substr(colon + 1)};
}

std::string bracketed(const std::string& host) {
  return host.find(':') == std::string::npos ? host : "[" + host + "]";
}

}  // namespace

std::string ServerUrl::authority() const { return bracketed(host) + ":" + port; }

std::string ServerUrl::origin() const {
  return std::string(tls ? "https://" : "http://") + authority();
}

ServerUrl parse_server_url(const std::string& url) {
  ServerUrl out;
  std::string rest;
  for (const auto& [scheme, tls] : kSchemes) {
    if (url.rfind(scheme, 0) == 0) {
      out.tls = tls;
      rest = url.substr(std::string(scheme).size());
      break;
    }
  }
  if (rest.empty()) throw bad_url(url, "must be http://HOST:PORT or https://HOST:PORT");
  const std::string authority = rest.substr(0, rest.find_first_of("/?#"));
  auto [host, port] = split_authority(url, authority);
  if (host.empty()) throw bad_url(url, "no host");
  if (port.empty()) port = out.tls ? "443" : "80";
  const auto number = try_parse_whole<int>(port);
  if (!number || *number < 1 || *number > 65535) {
    throw bad_url(url, fmt::format("port '{}' is not in 1..65535", printable(port)));
  }
  out.host = std::move(host);
  out.port = std::move(port);
  return out;
}

}  // namespace schedrig::client
