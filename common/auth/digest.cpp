#include "common/auth/digest.h"

#include <openssl/evp.h>

#include "common/error.h"

namespace schedrig::auth::detail {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

Digest sha256_digest(std::string_view bytes) {
  Digest digest{};
  if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), nullptr, EVP_sha256(), nullptr) != 1) {
    throw Error(ErrorKind::kFailed, "cannot hash a token: OpenSSL EVP_Digest failed");
  }
  return digest;
}

std::string digest_hex(const Digest& digest) {
  std::string out(2 * digest.size(), '0');
  for (std::size_t i = 0; i < digest.size(); ++i) {
    out[2 * i] = kHexDigits[digest[i] >> 4];
    out[2 * i + 1] = kHexDigits[digest[i] & 0xf];
  }
  return out;
}

std::optional<Digest> digest_from_hex(std::string_view hex) {
  Digest digest{};
  if (hex.size() != 2 * digest.size()) return std::nullopt;
  for (std::size_t i = 0; i < digest.size(); ++i) {
    const int high = hex_value(hex[2 * i]);
    const int low = hex_value(hex[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    digest[i] = static_cast<unsigned char>(high * 16 + low);
  }
  return digest;
}

}  // namespace schedrig::auth::detail
