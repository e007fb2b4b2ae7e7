#include "agent/spool/spool_fs.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "agent/spool/dir_trust.h"
#include "agent/spool/spool_error.h"
#include "common/file_owner.h"

namespace schedrig::spool {
namespace {

const char* type_name(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// Why `st` may not be read as a spool file, or "".
std::string refusal(const struct stat& st, bool& foreign) {
  if (!S_ISREG(st.st_mode)) return fmt::format("{}, not a regular file", type_name(st.st_mode));
  const auto owner = untrusted_owner(st.st_uid);
  foreign = owner.has_value();
  if (foreign) return *owner;
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    return fmt::format(
        "mode {:04o}: writable by group or other, so another user could have "
        "rewritten it",
        st.st_mode & 07777);
  return "";
}

[[noreturn]] void fail(const std::string& what, int err, ErrorKind kind = ErrorKind::kFailed) {
  throw SpoolError(kind, fmt::format("spool: {}: {}", what, std::strerror(err)));
}

}  // namespace

Fd open_spool_dir(const std::string& dir) {
  const std::filesystem::path path(dir);
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    fail("cannot create directory " + dir, errno, ErrorKind::kUsage);
  Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0) fail("cannot open directory " + dir, errno, ErrorKind::kUsage);
  check_trusted_dir(fd.get(), "spool dir", dir);
  return fd;
}

Fd open_in(int dirfd, const std::string& name, int flags) {
  return Fd(::openat(dirfd, name.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, 0600));
}

TrustedOpen open_trusted(int dirfd, const std::string& name) {
  TrustedOpen out;
  struct stat st {};
  // Look first: opening a device may do something, even with O_NONBLOCK.
  if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    out.err = errno;
    return out;
  }
  if (out.why = refusal(st, out.foreign); !out.why.empty()) return out;
  out.fd = Fd(::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (out.fd.get() < 0) {
    out.err = errno;
    if (out.err == ELOOP) out.why = "a symbolic link, not a regular file";
    return out;
  }
  if (::fstat(out.fd.get(), &st) != 0) {
    out.err = errno;
    out.fd = Fd();
  } else if (out.why = refusal(st, out.foreign); !out.why.empty()) {
    out.fd = Fd();  // swapped between the look and the open
  }
  return out;
}

void sync_data(int fd, const std::string& what) {
  if (::fdatasync(fd) != 0) fail("cannot sync " + what, errno);
}

void sync_dir(int dirfd, const std::string& dir) {
  if (::fsync(dirfd) != 0) fail("cannot sync directory " + dir, errno);
}

int write_all_at(int fd, std::string_view bytes, std::uint64_t offset) {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    bytes.remove_prefix(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return 0;
}

std::vector<std::string> list_names(int dirfd, const std::string& dir) {
  const int copy = ::dup(dirfd);
  DIR* d = copy < 0 ? nullptr : ::fdopendir(copy);
  if (d == nullptr) {
    const int err = errno;
    if (copy >= 0) ::close(copy);
    fail("cannot list " + dir, err);
  }
  ::rewinddir(d);
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(d);
  return names;
}

void remove_in(int dirfd, const std::string& name) {
  if (::unlinkat(dirfd, name.c_str(), 0) != 0 && errno != ENOENT)
    fail("cannot remove " + name, errno);
}

void rename_in(int dirfd, const std::string& from, const std::string& to) {
  if (::renameat(dirfd, from.c_str(), dirfd, to.c_str()) != 0)
    fail(fmt::format("cannot rename {} to {}", from, to), errno);
}

void cut_file(int dirfd, const std::string& name, std::uint64_t size) {
  const Fd fd = open_in(dirfd, name, O_WRONLY);
  if (fd.get() < 0 || ::ftruncate(fd.get(), static_cast<off_t>(size)) != 0)
    fail(fmt::format("cannot cut {} to {} bytes", name, size), errno);
}

}  // namespace schedrig::spool
