// A throwaway PKI for TLS tests, made with OpenSSL's API (no openssl(1)):
// a self-signed CA and a server certificate it signed, as PEM files.
#pragma once

#include <string>

namespace schedrig::testing {

struct TestPki {
  std::string ca_cert;      // DIR/ca.pem: the CA certificate (basicConstraints CA:TRUE)
  std::string server_cert;  // DIR/server.pem: CN localhost, SAN IP:127.0.0.1, IP:::1, DNS:localhost
  std::string server_key;   // DIR/server.key: its EC P-256 private key, mode 0600
};

// Makes a fresh CA and server certificate (valid from an hour ago for a day)
// in `dir`, which must exist; each call makes new keys, so two PKIs do not
// trust each other. Throws std::runtime_error with OpenSSL's reason.
TestPki make_test_pki(const std::string& dir);

}  // namespace schedrig::testing
