// What `schedrig serve` runs with (docs/architecture.md "Server", "Command
// lines"), and the rules between the settings: tokens are always required;
// a --listen address that is not loopback needs TLS unless --insecure (which
// drops TLS only, never tokens). Each setting comes from its flag, then the
// --config file (common/config_file.h), then the default; serve reads no
// environment variable and no file it is not given (packaging passes
// --config /etc/schedrig/serve.yaml).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <string_view>

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
  std::size_t max_pending_per_peer = 64;  // connections not authorized yet, per address
  bool insecure = false;
  unsigned threads = 2;
  // A run whose agent stays disconnected this long becomes "interrupted"
  // (docs/architecture.md "Queue").
  unsigned interrupt_after_s = 3600;
};

// The keys `serve --config F` knows (the flags' names, '-' as '_'); anything
// else is an error naming the file, line and key.
inline constexpr std::array<std::string_view, 10> kServeConfigKeys{
    "listen",
    "db",
    "tokens",
    "tls_cert",
    "tls_key",
    "max_connections",
    "max_pending_per_peer",
    "insecure",
    "threads",
    "interrupt_after_s",
};

// `serve`'s flags as parsed, defaults where not given.
struct ServeFlags {
  ServeSettings values;
  std::string config;                        // --config F; "" = none
  std::set<std::string, std::less<>> given;  // flags on the command line: "--listen", ...
};

// The settings `flags` describe: a flag given wins, then the config file's
// key, then the default. Throws CliError(kUsage) for a bad config file or
// value ("F:LINE: key 'threads': '0' is not a whole number in 1..64").
ServeSettings serve_settings(const ServeFlags& flags);

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
