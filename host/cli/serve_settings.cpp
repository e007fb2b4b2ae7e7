#include "host/cli/serve_settings.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "host/server/listen_address.h"
#include "host/store/default_db_path.h"

namespace schedrig::host {

namespace asio = boost::asio;

asio::ip::tcp::endpoint checked_endpoint(const ServeSettings& s) {
  asio::ip::tcp::endpoint endpoint;
  try {
    endpoint = server::parse_listen_address(s.listen);
  } catch (const server::ServerError& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  if (s.tls_cert.empty() != s.tls_key.empty()) {
    throw CliError(ErrorKind::kUsage, "--tls-cert and --tls-key go together");
  }
  if (s.tls_cert.empty() && !s.insecure && !endpoint.address().is_loopback()) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("--listen {} is not a loopback address: give --tls-cert and "
                               "--tls-key, or --insecure to serve plain TCP (tokens stay "
                               "required)",
                               s.listen));
  }
  return endpoint;
}

auth::TokenSet load_serve_tokens(const ServeSettings& s) {
  const std::string path = s.tokens.empty() ? store::default_tokens_path() : s.tokens;
  const std::string hint = fmt::format(
      "add one with `schedrig token new --agent ID --tokens {}` (and --operator NAME for the CLI)",
      path);
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 && errno == ENOENT) {
    throw CliError(
        ErrorKind::kUsage,
        fmt::format("tokens file {} does not exist: serve always needs tokens; {}", path, hint));
  }
  auth::TokenSet tokens;
  try {
    tokens = auth::TokenSet::load_file(path);
  } catch (const Error& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  if (tokens.size() == 0) {
    throw CliError(
        ErrorKind::kUsage,
        fmt::format("tokens file {} holds no token: serve always needs tokens; {}", path, hint));
  }
  return tokens;
}

std::shared_ptr<asio::ssl::context> serve_tls_context(const ServeSettings& s) {
  if (s.tls_cert.empty()) return nullptr;
  // Until common/tls (server_tls_context) is on main: TLS 1.2+, the chain and key as PEM.
  auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
  ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                   asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                   asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use);
  boost::system::error_code ec;
  if (ctx->use_certificate_chain_file(s.tls_cert, ec)) {
    throw CliError(ErrorKind::kUsage, fmt::format("--tls-cert {}: {}", s.tls_cert, ec.message()));
  }
  if (ctx->use_private_key_file(s.tls_key, asio::ssl::context::pem, ec)) {
    throw CliError(ErrorKind::kUsage, fmt::format("--tls-key {}: {}", s.tls_key, ec.message()));
  }
  return ctx;
}

}  // namespace schedrig::host
