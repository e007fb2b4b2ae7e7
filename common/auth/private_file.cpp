#include "common/auth/private_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_owner.h"

namespace schedrig::auth::detail {
namespace {

[[noreturn]] void refuse(const std::string& label, const std::string& reason) {
  throw Error(ErrorKind::kUsage, fmt::format("{}: {}", label, reason));
}

// Why open(2) failed, in the user's terms.
std::string open_failure(int err) {
  if (err == ELOOP) return "is a symbolic link (refused)";
  return fmt::format("cannot open: {}", std::strerror(err));
}

// Refuses anything but a regular file nobody but its owner may touch, and
// an owner other than this user or root.
void check_private(int fd, const std::string& label) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) refuse(label, fmt::format("cannot stat: {}", std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) refuse(label, "not a regular file (refused)");
  if ((st.st_mode & 077) != 0) {
    refuse(label, fmt::format("mode {:04o} gives group or others access; chmod 600 it",
                              st.st_mode & 07777));
  }
  if (auto owner = untrusted_owner(st.st_uid)) refuse(label, *owner);
}

// Waits until a non-blocking `fd` has data or EOF.
void wait_readable(int fd, const std::string& label) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, -1) < 0 && errno != EINTR) {
    refuse(label, fmt::format("cannot poll: {}", std::strerror(errno)));
  }
}

}  // namespace

UniqueFd open_private_file(const std::string& path, int flags, const std::string& label) {
  const int fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
  if (fd < 0) refuse(label, open_failure(errno));
  UniqueFd owned(fd);
  check_private(fd, label);
  return owned;
}

std::string read_bounded(int fd, std::size_t max_bytes, const std::string& label) {
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) return text;
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        wait_readable(fd, label);
        continue;
      }
      refuse(label, fmt::format("cannot read: {}", std::strerror(errno)));
    }
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) refuse(label, fmt::format("larger than {} bytes", max_bytes));
  }
}

}  // namespace schedrig::auth::detail
