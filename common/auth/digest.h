// SHA-256 digests of tokens (internal to schedrig_auth): raw bytes, hex both ways.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace schedrig::auth::detail {

using Digest = std::array<unsigned char, 32>;

// SHA-256 of `bytes` (OpenSSL EVP); throws schedrig::Error(kFailed) if OpenSSL fails.
Digest sha256_digest(std::string_view bytes);

// 64 lowercase hex chars.
std::string digest_hex(const Digest& digest);

// 64 lowercase hex chars -> the digest; nullopt for anything else (uppercase included).
std::optional<Digest> digest_from_hex(std::string_view hex);

}  // namespace schedrig::auth::detail
