#include "common/auth/token_set.h"

#include <fcntl.h>
#include <openssl/crypto.h>

#include <fmt/format.h>

#include "common/auth/digest.h"
#include "common/auth/private_file.h"
#include "common/auth/token.h"
#include "common/error.h"
#include "common/printable.h"

namespace schedrig::auth {
namespace {

constexpr std::string_view kSpace = " \t\r";

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorKind::kUsage, message); }

// The line's whitespace-separated fields.
std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t pos = line.find_first_not_of(kSpace);
  while (pos != std::string_view::npos) {
    const std::size_t end = std::min(line.find_first_of(kSpace, pos), line.size());
    fields.push_back(line.substr(pos, end - pos));
    pos = line.find_first_not_of(kSpace, end);
  }
  return fields;
}

std::optional<Role> role_of(std::string_view word) {
  if (word == "agent") return Role::kAgent;
  if (word == "operator") return Role::kOperator;
  return std::nullopt;
}

}  // namespace

const char* role_name(Role role) { return role == Role::kAgent ? "agent" : "operator"; }

TokenSet TokenSet::load_file(const std::string& path) {
  const detail::UniqueFd fd = detail::open_private_file(path, O_RDONLY, path);
  return parse(detail::read_bounded(fd.get(), kMaxTokensFileBytes, path), path);
}

TokenSet TokenSet::parse(std::string_view text, const std::string& source) {
  if (text.size() > kMaxTokensFileBytes) {
    refuse(fmt::format("{}: larger than {} bytes", source, kMaxTokensFileBytes));
  }
  TokenSet set;
  std::vector<std::size_t> entry_lines;
  std::size_t line_no = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (++line_no > kMaxTokensFileLines) {
      refuse(fmt::format("{}: more than {} lines", source, kMaxTokensFileLines));
    }
    const auto fields = fields_of(line);
    if (fields.empty() || fields.front().front() == '#') continue;
    const std::string where = fmt::format("{}:{}", source, line_no);
    if (fields.size() != 3) {
      refuse(fmt::format("{}: expected 'agent|operator NAME SHA256HEX', got {} fields", where,
                         fields.size()));
    }
    const auto role = role_of(fields[0]);
    if (!role) {
      refuse(fmt::format("{}: unknown role '{}' (agent or operator)", where, printable(fields[0])));
    }
    if (!valid_principal_name(fields[1])) refuse(where + ": " + invalid_name_reason(fields[1]));
    const auto digest = detail::digest_from_hex(fields[2]);
    if (!digest) refuse(where + ": the hash is not 64 lowercase hex chars (sha256 of the token)");
    if (const auto earlier = set.insert({*role, std::string(fields[1])}, *digest)) {
      refuse(fmt::format("{}: the same hash as line {}", where, entry_lines[*earlier]));
    }
    entry_lines.push_back(line_no);
  }
  return set;
}

void TokenSet::add(Role role, const std::string& name, std::string_view token) {
  if (!valid_principal_name(name)) refuse(invalid_name_reason(name));
  if (token.empty()) refuse("empty token for " + name);
  if (insert({role, name}, detail::sha256_digest(token))) {
    refuse(fmt::format("{} {}: token already in the set", role_name(role), name));
  }
}

std::optional<std::size_t> TokenSet::insert(Principal principal, const Digest& digest) {
  if (const auto it = index_.find(digest); it != index_.end()) return it->second;
  index_.emplace(digest, entries_.size());
  entries_.push_back({std::move(principal), digest});
  return std::nullopt;
}

std::optional<Principal> TokenSet::authenticate(std::string_view token) const {
  if (token.empty()) return std::nullopt;
  const Digest digest = detail::sha256_digest(token);
  std::size_t found = entries_.size();
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const bool equal = CRYPTO_memcmp(entries_[i].digest.data(), digest.data(), digest.size()) == 0;
    found = equal ? i : found;
  }
  if (found == entries_.size()) return std::nullopt;
  return entries_[found].principal;
}

std::vector<Principal> TokenSet::principals() const {
  std::vector<Principal> out;
  out.reserve(entries_.size());
  for (const auto& e : entries_) out.push_back(e.principal);
  return out;
}

}  // namespace schedrig::auth
