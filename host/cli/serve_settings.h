// What `schedrig serve` runs with (docs/architecture.md "Server", "Command
// lines"), and the rules between the settings: tokens are always required;
// a --listen address that is not loopback needs TLS unless --insecure (which
// drops TLS only, never tokens).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include "common/auth/token_set.h"

namespace schedrig::host {

struct ServeSettings {
  std::string listen = "127.0.0.1:7878";
  std::string db;      // "" = store::default_db_path()
  std::string tokens;  // "" = store::default_tokens_path()
  std::string tls_cert, tls_key;
  std::size_t max_connections = 4096;
  bool insecure = false;
  unsigned threads = 2;
};

// The listen endpoint, checked against the TLS rule. Throws CliError
// (kUsage): a bad address, --tls-cert without --tls-key (or the other way),
// a non-loopback address without TLS and without --insecure.
boost::asio::ip::tcp::endpoint checked_endpoint(const ServeSettings& s);

// The tokens file (`s.tokens` or the default). Throws CliError (kUsage)
// naming it: missing or empty (with the `schedrig token new` that makes
// one), or refused by TokenSet::load_file.
auth::TokenSet load_serve_tokens(const ServeSettings& s);

// The server's TLS context, or null without --tls-cert. Throws CliError
// (kUsage) naming the file and the reason.
std::shared_ptr<boost::asio::ssl::context> serve_tls_context(const ServeSettings& s);

}  // namespace schedrig::host
