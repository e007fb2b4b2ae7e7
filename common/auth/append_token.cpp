// append_token, append_new_token (common/auth/token_set.h).
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/auth/private_file.h"
#include "common/auth/token.h"
#include "common/auth/token_set.h"
#include "common/error.h"

namespace schedrig::auth {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& reason) {
  throw Error(ErrorKind::kUsage, fmt::format("{}: {}", path, reason));
}

// Refuses a file that has no room for `line` (which ends in a newline).
void check_room(const std::string& path, const std::string& text, const std::string& line) {
  const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n') +
                                              std::count(line.begin(), line.end(), '\n'));
  if (lines > kMaxTokensFileLines || text.size() + line.size() > kMaxTokensFileBytes) {
    refuse(path, fmt::format("full (at most {} lines, {} bytes)", kMaxTokensFileLines,
                             kMaxTokensFileBytes));
  }
}

// Appends `bytes` to the file open at `fd`, `size` bytes long; a failed
// write (ENOSPC) is cut back off, so no half line is left for serve to refuse.
void append_all(int fd, const std::string& path, off_t size, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      (void)::ftruncate(fd, size);
      refuse(path, fmt::format("cannot write: {}", std::strerror(err)));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::fsync(fd) != 0) refuse(path, fmt::format("cannot fsync: {}", std::strerror(errno)));
}

}  // namespace

void append_token(const std::string& path, Role role, const std::string& name,
                  const std::string& token) {
  if (!valid_principal_name(name)) throw Error(ErrorKind::kUsage, invalid_name_reason(name));
  const detail::UniqueFd fd = detail::open_private_file(path, O_RDWR | O_CREAT | O_APPEND, path);
  if (::flock(fd.get(), LOCK_EX) != 0) {
    refuse(path, fmt::format("cannot lock: {}", std::strerror(errno)));
  }
  const std::string text = detail::read_bounded(fd.get(), kMaxTokensFileBytes, path);
  TokenSet::parse(text, path);  // never append to a file serve would refuse
  const char* separator = !text.empty() && text.back() != '\n' ? "\n" : "";
  const std::string line =
      fmt::format("{}{} {} {}\n", separator, role_name(role), name, token_sha256_hex(token));
  check_room(path, text, line);
  append_all(fd.get(), path, static_cast<off_t>(text.size()), line);
}

std::string append_new_token(const std::string& path, Role role, const std::string& name) {
  std::string token = new_token();
  append_token(path, role, name, token);
  return token;
}

}  // namespace schedrig::auth
