// TLS contexts for the control plane (docs/architecture.md "Control plane",
// "TLS"): `schedrig serve --tls-cert/--tls-key` on the server side, `--ca`
// (agent connect, CLI --server) on the client side. TLS 1.2 is the
// minimum; files are read with tls/pem_file.h's checks. Errors are
// schedrig::Error(kUsage) naming the file and OpenSSL's reason
// ("TLS key file k.pem: does not match the certificate in c.pem (key values
// mismatch, x509 certificate routines)").
#pragma once

#include <memory>
#include <string>

#include <boost/asio/ssl/context.hpp>

namespace schedrig::tls {

// A server context: `cert_file` holds the server certificate first, then
// any intermediate CA certificates (PEM); `key_file` its unencrypted private
// key (PEM), which must not be accessible by group or others (mode & 077).
std::shared_ptr<boost::asio::ssl::context> server_tls_context(const std::string& cert_file,
                                                              const std::string& key_file);

// A client context that verifies the peer's chain: against the PEM
// certificates in `ca_file` (one or more), or the system's default trust
// store when `ca_file` is "". The host name is checked per connection
// (agent/link: SNI and ssl::host_name_verification).
std::shared_ptr<boost::asio::ssl::context> client_tls_context(const std::string& ca_file);

}  // namespace schedrig::tls
