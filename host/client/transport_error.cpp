#include "host/client/transport_error.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <fmt/format.h>
#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>

#include "common/printable.h"
#include "host/client/api_client.h"

namespace schedrig::client {
namespace {

namespace asio = boost::asio;

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
  if (not_tls_answer(f.ec)) {
    return Error(ErrorKind::kUnreachable,
                 fmt::format("TLS handshake with {} failed: the server did not answer TLS: is it "
                             "serving plain HTTP? (then use http://{})",
                             origin, url.authority()));
  }
  return Error(ErrorKind::kUnreachable,
               fmt::format("TLS handshake with {} failed: {}", origin, f.ec.message()));
}

Error exchange_error(const ServerUrl& url, const TransportFailure& f) {
  if (f.server_speaks_tls) {
    return Error(ErrorKind::kUnreachable,
                 fmt::format("server {} closed the connection without an answer: the server "
                             "speaks TLS: use https://{}",
                             url.origin(), url.authority()));
  }
  return Error(ErrorKind::kUnreachable,
               fmt::format("lost the connection to server {}: {}", url.origin(), f.ec.message()));
}

}  // namespace

bool not_tls_answer(const boost::system::error_code& ec) {
  if (ec == asio::ssl::error::stream_truncated || ec == asio::error::eof ||
      ec == asio::error::connection_reset) {
    return true;
  }
  if (ec.category() != asio::error::get_ssl_category()) return false;
  const int reason = ERR_GET_REASON(static_cast<unsigned long>(ec.value()));
  return reason == SSL_R_WRONG_VERSION_NUMBER || reason == SSL_R_PACKET_LENGTH_TOO_LONG ||
         reason == SSL_R_UNEXPECTED_EOF_WHILE_READING;
}

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
