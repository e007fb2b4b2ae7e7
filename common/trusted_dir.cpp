#include "common/trusted_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace schedrig {
namespace {

// Creates `dir` and any missing parent with mode 0755 (umask aside).
void make_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(dir).parent_path(), ec);
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    throw UntrustedDir(fmt::format("cannot create {}: {}", dir, std::strerror(errno)));
  }
}

void check_owner_and_mode(const std::string& dir, const struct stat& st) {
  if (st.st_uid != ::geteuid() && st.st_uid != 0) {
    throw UntrustedDir(
        fmt::format("{} is owned by uid {}, not by root or this user (uid {}); "
                    "remove it or point the lock elsewhere",
                    dir, st.st_uid, ::geteuid()));
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    throw UntrustedDir(
        fmt::format("{} is writable by group or others (mode {:04o}): anyone could "
                    "plant its lock files; make it mode 0755 (chmod go-w {})",
                    dir, st.st_mode & 07777, dir));
  }
}

// Closes `fd` and throws UntrustedDir when `dir` (open as `fd`) fails the
// owner and mode check; else returns `fd`.
int checked(int fd, const std::string& dir) {
  struct stat st {};
  try {
    if (::fstat(fd, &st) != 0) {
      throw UntrustedDir(fmt::format("cannot stat {}: {}", dir, std::strerror(errno)));
    }
    check_owner_and_mode(dir, st);
  } catch (...) {
    ::close(fd);
    throw;
  }
  return fd;
}

// "cannot open directory DIR: WHY", saying when it was a link.
UntrustedDir open_error(const std::string& dir, int err) {
  return UntrustedDir(
      fmt::format("cannot open directory {}: {}{}", dir, std::strerror(err),
                  err == ELOOP || err == ENOTDIR ? " (a link or not a directory)" : ""));
}

// Opens the directory `name` in `parent_fd` without following a link,
// making it 0755 first when missing. -1 with errno on failure.
int open_step(int parent_fd, const std::string& name) {
  const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  int fd = ::openat(parent_fd, name.c_str(), flags);
  if (fd < 0 && errno == ENOENT) {
    if (::mkdirat(parent_fd, name.c_str(), 0755) != 0 && errno != EEXIST) return -1;
    fd = ::openat(parent_fd, name.c_str(), flags);
  }
  return fd;
}

}  // namespace

int open_trusted_dir_under(const std::string& base, const std::string& rel) {
  int fd = ::open(base.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw open_error(base, errno);
  std::filesystem::path dir = base;
  for (const auto& part : std::filesystem::path(rel)) {
    const std::string name = part.string();
    if (name.empty() || name == "." || name == "/") continue;
    dir /= part;
    if (name == "..") {
      ::close(fd);
      throw UntrustedDir(fmt::format("{}: '..' is not allowed in a lock directory", dir.string()));
    }
    const int next = open_step(fd, name);
    const int err = errno;
    ::close(fd);
    if (next < 0) throw open_error(dir.string(), err);
    fd = next;
  }
  return checked(fd, dir.string());
}

int open_trusted_dir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    make_dir(dir);
    fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  }
  if (fd < 0) throw open_error(dir, errno);
  return checked(fd, dir);
}

void check_trusted_ancestors(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(fs::absolute(dir), ec);
  if (ec) throw UntrustedDir(fmt::format("cannot resolve {}: {}", dir, ec.message()));
  for (fs::path p = real.parent_path();; p = p.parent_path()) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0)
      throw UntrustedDir(fmt::format("cannot stat {}: {}", p.string(), std::strerror(errno)));
    if (st.st_uid != ::geteuid() && st.st_uid != 0)
      throw UntrustedDir(fmt::format("{} (above {}) is owned by uid {}, not by root or this user",
                                     p.string(), dir, st.st_uid));
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0)
      throw UntrustedDir(
          fmt::format("{} (above {}) is writable by group or others (mode {:04o}) and not sticky",
                      p.string(), dir, st.st_mode & 07777));
    if (p == p.root_path()) break;
  }
}

}  // namespace schedrig
