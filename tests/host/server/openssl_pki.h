// A throwaway CA and a server certificate for 127.0.0.1 made with the
// `openssl` command (until tests/support/test_pki is on main): PEM paths.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace schedrig::testing {

struct OpensslPki {
  std::string ca_cert, server_cert, server_key;
};

inline OpensslPki make_openssl_pki(const std::string& dir) {
  const std::string d = dir + "/";
  const std::string cmd =
      "cd '" + dir +
      "' && openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 "
      "-subj /CN=schedrig-test-ca >/dev/null 2>&1"
      " && openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr "
      "-subj /CN=localhost >/dev/null 2>&1"
      " && printf 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\\n' > san.ext"
      " && openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
      "-out server.pem -days 2 -extfile san.ext >/dev/null 2>&1 && chmod 600 server.key";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("openssl failed in " + dir);
  return {d + "ca.pem", d + "server.pem", d + "server.key"};
}

}  // namespace schedrig::testing
