// The host's tokens file (docs/architecture.md "Control plane", "Tokens"):
// who may connect as which agent and who may operate, as SHA-256 hashes of
// their tokens. Tokens themselves are never stored; `append_new_token` shows
// a new one once.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedrig::auth {

// The most a tokens file may hold: bytes and lines.
inline constexpr std::size_t kMaxTokensFileBytes = 1024 * 1024;
inline constexpr std::size_t kMaxTokensFileLines = 100000;

// What a token lets its holder be: an agent (the /agent link) or an operator (/api).
enum class Role { kAgent, kOperator };

// "agent" | "operator", as the tokens file spells it.
const char* role_name(Role role);

// Who a token authenticates: a role and an agent id or operator name.
struct Principal {
  Role role = Role::kAgent;
  std::string name;
  friend bool operator==(const Principal&, const Principal&) = default;
};

// Tokens by hash. Lines "agent NAME SHA256HEX" or "operator NAME SHA256HEX";
// '#' comment lines and blank lines are ignored. A name may have several
// tokens (rotation: add the new one, then delete the old line); one hash may
// not appear twice.
class TokenSet {
 public:
  // Opens `path` O_NOFOLLOW; it must be a regular file, mode & 077 == 0, at most
  // kMaxTokensFileBytes and kMaxTokensFileLines. Throws schedrig::Error(kUsage)
  // "FILE:LINE: reason" for a bad line, "FILE: reason" for the file.
  static TokenSet load_file(const std::string& path);

  // Parses tokens-file `text`; errors name `source` as load_file names the file.
  static TokenSet parse(std::string_view text, const std::string& source);

  // Adds `token` for (role, name) in memory (lab). Throws Error(kUsage) for an
  // invalid name, an empty token or a token already in the set.
  void add(Role role, const std::string& name, std::string_view token);

  // Hashes `token` and compares it with every entry using CRYPTO_memcmp (no
  // early exit). The principal whose hash matches, else nullopt.
  std::optional<Principal> authenticate(std::string_view token) const;

  // Entries (one per token), in file order; no hashes.
  std::vector<Principal> principals() const;

  std::size_t size() const { return entries_.size(); }

 private:
  using Digest = std::array<unsigned char, 32>;  // SHA-256 of a token
  struct Entry {
    Principal principal;
    Digest digest;
  };
  // Appends an entry; when `digest` is already in, adds nothing and returns
  // the index of the entry that has it.
  std::optional<std::size_t> insert(Principal principal, const Digest& digest);

  std::vector<Entry> entries_;
  std::map<Digest, std::size_t> index_;  // digest -> entries_ index, to refuse duplicates
};

// Appends the SHA-256 of `token` for (role, name) to the tokens file `path`,
// under an exclusive flock; a failed write is cut back off. The file is created 0600 (O_CREAT|O_NOFOLLOW|O_APPEND; its parent
// dir must exist); an existing one must be a regular, valid tokens file with
// mode & 077 == 0. Throws schedrig::Error(kUsage) "FILE: reason" (or
// "FILE:LINE: reason" for a bad existing line), or for an invalid name.
void append_token(const std::string& path, Role role, const std::string& name,
                  const std::string& token);

// append_token with a fresh token (common/auth/token.h new_token); returns it.
std::string append_new_token(const std::string& path, Role role, const std::string& name);

}  // namespace schedrig::auth
