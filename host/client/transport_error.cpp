#include "host/client/transport_error.h"

#include <fmt/format.h>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>

#include "common/printable.h"
#include "common/tls/scheme_hint.h"
#include "host/client/api_client.h"

namespace schedrig::client {
namespace {

// What the certificate was checked against, for a refusal.
std::string trusted(const std::string& ca_file) {
  if (ca_file.empty()) {
    return "checked against the system's CA store; give --ca FILE to trust a private CA";
  }
  return "checked against --ca " + printable(ca_file);
}

Error tls_error(const ServerUrl& url, const TransportFailure& f) {
  const std::string origin = url.origin();
  if (!f.verify_failure.empty()) {
    return Error(ErrorKind::kUnreachable,
                 fmt::format("TLS handshake with {} failed: certificate verify failed: {} ({})",
                             origin, printable(f.verify_failure), trusted(f.ca_file)));
  }
  if (tls::not_tls_answer(f.ec)) {
    return Error(ErrorKind::kUnreachable,
                 fmt::format("TLS handshake with {} failed: {}", origin,
                             tls::not_tls_hint("http://" + url.authority())));
  }
  return Error(ErrorKind::kUnreachable,
               fmt::format("TLS handshake with {} failed: {}", origin, f.ec.message()));
}

Error exchange_error(const ServerUrl& url, const TransportFailure& f) {
  if (f.server_speaks_tls) {
    return Error(ErrorKind::kUnreachable,
                 fmt::format("server {} closed the connection without an answer: {}", url.origin(),
                             tls::speaks_tls_hint("https://" + url.authority())));
  }
  return Error(ErrorKind::kUnreachable,
               fmt::format("lost the connection to server {}: {}", url.origin(), f.ec.message()));
}

}  // namespace

Error transport_error(const ServerUrl& url, const TransportFailure& f) {
  if (f.ec == boost::beast::http::error::body_limit) {
    return Error(ErrorKind::kPeerLimit, fmt::format("server {}: answer over {} MiB", url.origin(),
                                                    kMaxResponseBody >> 20));
  }
  if (f.ec == boost::beast::error::timeout) {
    return Error(ErrorKind::kUnreachable,
                 fmt::format("server {}: no answer within {:.3g} s", url.origin(),
                             static_cast<double>(f.timeout.count()) / 1000.0));
  }
  switch (f.step) {
    case Step::kConnect:
      return Error(ErrorKind::kUnreachable,
                   fmt::format("cannot reach server {}: {}", url.origin(), f.ec.message()));
    case Step::kTls:
      return tls_error(url, f);
    case Step::kExchange:
      break;
  }
  return exchange_error(url, f);
}

}  // namespace schedrig::client
