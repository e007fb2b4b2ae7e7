#include "common/auth/token.h"

#include <openssl/rand.h>

#include <fmt/format.h>

#include "common/auth/digest.h"
#include "common/error.h"
#include "common/printable.h"

namespace schedrig::auth {
namespace {

constexpr std::size_t kMaxNameChars = 128;

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::string new_token() {
  detail::Digest bytes{};  // 32 random bytes, shown as hex like a digest
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    throw Error(ErrorKind::kFailed, "cannot make a token: OpenSSL RAND_bytes failed");
  }
  return detail::digest_hex(bytes);
}

std::string token_sha256_hex(std::string_view token) {
  return detail::digest_hex(detail::sha256_digest(token));
}

bool valid_principal_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameChars || !is_alnum(name.front())) return false;
  for (char c : name) {
    if (!is_alnum(c) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

std::string invalid_name_reason(std::string_view name) {
  return fmt::format(
      "invalid name '{}': 1..128 chars of A-Z a-z 0-9 . _ -, the first a letter or digit",
      printable(name));
}

std::optional<std::string> bearer_token(std::string_view authorization_header) {
  constexpr std::string_view kScheme = "bearer ";
  if (authorization_header.size() <= kScheme.size()) return std::nullopt;
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    if (lower(authorization_header[i]) != kScheme[i]) return std::nullopt;
  }
  const std::string_view token = authorization_header.substr(kScheme.size());
  if (token.find_first_of(" \t") != std::string_view::npos) return std::nullopt;
  return std::string(token);
}

}  // namespace schedrig::auth
