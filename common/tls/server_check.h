// Checking the server's certificate on a client connection (docs/architecture.md
// "TLS"), shared by the agent's link and the CLI's client: SNI, the chain
// against the context's CAs, the host name on the leaf, and OpenSSL's words
// for why a certificate was refused.
#pragma once

#include <string>

#include <boost/asio/ssl.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

namespace schedrig::tls {

// True when `host` is an IPv4 or IPv6 literal.
bool is_ip_address(const std::string& host);

// Before the handshake on `stream`: SNI for a name (names only, RFC 6066
// section 3), verify_peer, and a verify callback that takes OpenSSL's chain
// check, then the host name on the leaf (ssl::host_name_verification: RFC
// 2818/6125 names, an IP address against its IP SANs). When it refuses,
// `*why` (owned by the caller, alive until the handshake ends) says why:
// OpenSSL's verify error ("self-signed certificate in certificate chain",
// "certificate has expired") or "the host's certificate is not valid for
// HOST". Throws schedrig::Error(kFailed) when SNI cannot be set.
void check_server(boost::beast::ssl_stream<boost::beast::tcp_stream>& stream,
                  const std::string& host, std::string* why);

}  // namespace schedrig::tls
