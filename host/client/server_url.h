// Where the operator's CLI finds `schedrig serve` (docs/architecture.md
// "Command lines"): http://HOST:PORT or https://HOST:PORT; ws:// and wss://
// (the agents' URL of the same server) are accepted and mean the same.
#pragma once

#include <string>

namespace schedrig::client {

struct ServerUrl {
  bool tls = false;  // https:// or wss://
  std::string host;  // name or address; IPv6 without brackets
  std::string port;  // decimal; default "80" (http) or "443" (https)

  // "http://HOST:PORT" or "https://HOST:PORT" (IPv6 in brackets): how errors name it.
  std::string origin() const;
  // The Host header's value: HOST:PORT (IPv6 in brackets).
  std::string authority() const;
};

// Parses `url`: a scheme of http, https, ws or wss, a host, an optional port
// in 1..65535 and an optional path (ignored: the API lives at /api/v1).
// Throws schedrig::Error(kUsage) naming the URL and what is wrong.
ServerUrl parse_server_url(const std::string& url);

}  // namespace schedrig::client
