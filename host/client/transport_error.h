// The user's words for a request to `schedrig serve` that did not get its
// answer (docs/architecture.md "Command lines": cannot connect, TLS refused
// or no answer in time -> exit 3 naming the URL), with the hint that fixes
// the usual mistakes: a certificate refused says OpenSSL's reason and what
// it was checked against; https:// to a plain port and http:// to a TLS
// port each say which scheme the server speaks.
#pragma once

#include <chrono>
#include <string>

#include <boost/system/error_code.hpp>

#include "common/error.h"
#include "host/client/server_url.h"

namespace schedrig::client {

// Where a request was when it failed.
enum class Step { kConnect, kTls, kExchange };

// Why one request failed.
struct TransportFailure {
  Step step = Step::kConnect;
  boost::system::error_code ec;
  std::chrono::milliseconds timeout{0};  // the request's bound
  std::string verify_failure;      // why the server's certificate was refused; "" = it was not
  std::string ca_file;             // the --ca file it was checked against; "" = the system's store
  bool server_speaks_tls = false;  // http://: a TLS handshake with the server succeeded
};

// Error(kPeerLimit) for an answer over the body limit; else Error(kUnreachable):
// "server URL: no answer within S s"; "cannot reach server URL: WHY";
// "TLS handshake with URL failed: certificate verify failed: WHY (checked
// against --ca F | the system's CA store; ...)"; "TLS handshake with URL
// failed: the server did not answer TLS: is it serving plain HTTP? (then use
// http://HOST:PORT)"; "server URL closed the connection without an answer:
// the server speaks TLS: use https://HOST:PORT"; "lost the connection to
// server URL: WHY".
Error transport_error(const ServerUrl& url, const TransportFailure& f);

}  // namespace schedrig::client
