#include "agent/knobs/knob_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "agent/knobs/knob.h"
#include "common/procfs/read_error.h"
#include "common/procfs/read_file.h"

namespace schedrig::knobs {
namespace {

// A knob is one value or one line of feature names: far below this.
constexpr std::size_t kKnobMaxBytes = 64 * 1024;

// Closes an fd on scope exit.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  std::string hint;
  if (path.find("/sys/kernel/debug") != std::string::npos && (err == ENOENT || err == EPERM)) {
    hint = err == ENOENT ? " (is debugfs mounted? mount -t debugfs none /sys/kernel/debug)"
                         : " (debugfs is locked down on this kernel)";
  }
  throw KnobUnavailable(fmt::format("{} {}: {} ({}){}", what, path, std::strerror(err),
                                    strerrorname_np(err) ? strerrorname_np(err) : "?", hint),
                        err);
}

// Opens `path` with O_NONBLOCK (a FIFO planted as a knob must not block the
// agent) and refuses anything but a regular file: /proc/sys, debugfs and the
// fake features file all are. Returns the fd, or -1 with errno set (EINVAL
// for a file that is not regular).
int open_regular(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    errno = EINVAL;
    return -1;
  }
  return fd;
}

[[noreturn]] void not_regular(const std::string& path) {
  throw KnobUnavailable(fmt::format("{} is not a regular file; refused", path), EINVAL);
}

}  // namespace

std::string read_knob_file(const std::string& path) {
  // The shared reader opens without O_NONBLOCK: refuse a FIFO or device
  // before it (the file itself is never followed: O_NOFOLLOW).
  std::error_code ec;
  const auto st = std::filesystem::symlink_status(path, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st) &&
      !std::filesystem::is_symlink(st)) {
    not_regular(path);
  }
  std::string out;
  try {
    out = procfs::read_small_file(path, kKnobMaxBytes);
  } catch (const procfs::ReadError& e) {
    fail("cannot read", path, e.errno_value());
  }
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
  return out;
}

void write_knob_file(const std::string& path, const std::string& text) {
  // O_TRUNC as a shell redirection does: ignored by procfs/debugfs, needed
  // for the plain files of a fake root.
  Fd f{open_regular(path, O_WRONLY | O_TRUNC)};
  if (f.fd < 0 && errno == EINVAL) not_regular(path);
  if (f.fd < 0) fail("cannot open for writing", path, errno);
  ssize_t n;
  do {
    n = ::write(f.fd, text.data(), text.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0) fail(fmt::format("cannot write '{}' to", text), path, errno);
  if (static_cast<std::size_t>(n) != text.size()) {
    throw KnobUnavailable(
        fmt::format("short write of '{}' to {}: {} of {} bytes", text, path, n, text.size()), EIO);
  }
}

Access probe_access(const std::string& path) {
  Access a;
  Fd r{open_regular(path, O_RDONLY)};
  a.readable = r.fd >= 0;
  if (!a.readable) a.errno_value = errno;
  Fd w{open_regular(path, O_WRONLY)};
  a.writable = w.fd >= 0;
  if (!a.writable && a.errno_value == 0) a.errno_value = errno;
  return a;
}

}  // namespace schedrig::knobs
