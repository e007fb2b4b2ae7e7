// Bearer tokens (docs/architecture.md "Control plane", "Tokens"): how a token
// is made, hashed, read from a client's file or pipe, and taken from an HTTP
// Authorization header; which agent ids and operator names a token can name.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace schedrig::auth {

// The most a client token file or fd may hold, in bytes.
inline constexpr std::size_t kMaxTokenFileBytes = 4096;

// A fresh token: 64 lowercase hex chars from 32 bytes of RAND_bytes. Throws
// schedrig::Error(kFailed) when OpenSSL's generator fails.
std::string new_token();

// SHA-256 of `token` as 64 lowercase hex chars (what a tokens file stores).
std::string token_sha256_hex(std::string_view token);

// Reads a client token file: opened O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_NONBLOCK,
// must be a regular file without group/other permission bits (mode & 077),
// at most kMaxTokenFileBytes; the token is the first line, trimmed, non-empty.
// Throws schedrig::Error(kUsage) "token file F: reason".
std::string read_token_file(const std::string& path);

// The same from an already open fd (a pipe from `lab`): reads to EOF, at most
// kMaxTokenFileBytes; does not close it. Throws Error(kUsage) "token fd N: reason".
std::string read_token_fd(int fd);

// Agent ids and operator names: 1..128 chars of [A-Za-z0-9._-], the first alnum.
bool valid_principal_name(std::string_view name);

// "invalid name 'N': ..." with the rule above, N made printable; for error messages.
std::string invalid_name_reason(std::string_view name);

// "Bearer X" (scheme case-insensitive, exactly one space, X non-empty) -> X;
// anything else -> nullopt.
std::optional<std::string> bearer_token(std::string_view authorization_header);

}  // namespace schedrig::auth
