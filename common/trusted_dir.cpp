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

}  // namespace

int open_trusted_dir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    make_dir(dir);
    fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  }
  if (fd < 0) {
    const int err = errno;
    throw UntrustedDir(
        fmt::format("cannot open directory {}: {}{}", dir, std::strerror(err),
                    err == ELOOP || err == ENOTDIR ? " (a link or not a directory)" : ""));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw UntrustedDir(fmt::format("cannot stat {}: {}", dir, std::strerror(err)));
  }
  try {
    check_owner_and_mode(dir, st);
  } catch (...) {
    ::close(fd);
    throw;
  }
  return fd;
}

}  // namespace schedrig
