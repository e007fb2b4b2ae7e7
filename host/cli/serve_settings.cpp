#include "host/cli/serve_settings.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/config_file.h"
#include "common/parse_whole.h"
#include "common/printable.h"
#include "common/tls/tls_context.h"
#include "host/server/listen_address.h"
#include "host/store/default_db_path.h"

namespace schedrig::host {

namespace asio = boost::asio;

namespace {

[[noreturn]] void refuse(const std::string& message) { throw CliError(ErrorKind::kUsage, message); }

// One setting: the flag if given, else the config's key, else the flag's value
// (its default).
class Settle {
 public:
  Settle(const ServeFlags& flags, const std::optional<ConfigFile>& config)
      : flags_(flags), config_(config) {}

  std::string text(const char* flag, const std::string& value, std::string_view key) const {
    if (const auto v = from_config(flag, key)) return *v;
    return value;
  }
  template <class T>
  T whole(const char* flag, T value, std::string_view key, T min, T max) const {
    const auto v = from_config(flag, key);
    if (!v) return value;
    const auto n = try_parse_whole<T>(*v);
    if (!n || *n < min || *n > max) {
      refuse(fmt::format("{}: '{}' is not a whole number in {}..{}", config_->where(key),
                         printable(*v), min, max));
    }
    return *n;
  }
  bool boolean(const char* flag, bool value, std::string_view key) const {
    const auto v = from_config(flag, key);
    if (!v) return value;
    if (*v == "true") return true;
    if (*v == "false") return false;
    refuse(fmt::format("{}: '{}' is not true or false", config_->where(key), printable(*v)));
  }

 private:
  std::optional<std::string> from_config(const char* flag, std::string_view key) const {
    if (flags_.given.contains(flag) || !config_) return std::nullopt;
    return config_->text(key);
  }
  const ServeFlags& flags_;
  const std::optional<ConfigFile>& config_;
};

}  // namespace

ServeSettings serve_settings(const ServeFlags& f) {
  std::optional<ConfigFile> config;
  if (!f.config.empty()) config = ConfigFile::load(f.config, kServeConfigKeys);
  const Settle settle(f, config);
  const ServeSettings& v = f.values;
  ServeSettings s;
  s.listen = settle.text("--listen", v.listen, "listen");
  s.db = settle.text("--db", v.db, "db");
  s.tokens = settle.text("--tokens", v.tokens, "tokens");
  s.tls_cert = settle.text("--tls-cert", v.tls_cert, "tls_cert");
  s.tls_key = settle.text("--tls-key", v.tls_key, "tls_key");
  s.max_connections = settle.whole<std::size_t>("--max-connections", v.max_connections,
                                                "max_connections", 1, 1'000'000);
  s.max_pending_per_peer = settle.whole<std::size_t>(
      "--max-pending-per-peer", v.max_pending_per_peer, "max_pending_per_peer", 1, 1'000'000);
  s.insecure = settle.boolean("--insecure", v.insecure, "insecure");
  s.threads = settle.whole<unsigned>("--threads", v.threads, "threads", 1, 64);
  s.interrupt_after_s = settle.whole<unsigned>("--interrupt-after", v.interrupt_after_s,
                                               "interrupt_after_s", 1, 30 * 24 * 3600);
  return s;
}

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
  try {
    return tls::server_tls_context(s.tls_cert, s.tls_key);
  } catch (const Error& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
}

}  // namespace schedrig::host
