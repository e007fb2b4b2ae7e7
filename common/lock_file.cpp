#include "common/lock_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "common/lock_holder.h"

namespace schedrig {
namespace {

std::string dir_of(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// Opens the lock file in `dir_fd`: no link, a regular file, ours or root's.
int open_in(int dir_fd, const std::string& path, mode_t mode) {
  const std::string name = std::filesystem::path(path).filename().string();
  const int fd =
      ::openat(dir_fd, name.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, mode);
  if (fd < 0) {
    throw std::runtime_error(fmt::format("cannot open lock {}: {}", path, std::strerror(errno)));
  }
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0) {
    why = std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else if (st.st_uid != ::geteuid() && st.st_uid != 0) {
    why = fmt::format("owned by uid {}, not by root or this user", st.st_uid);
  }
  if (!why.empty()) {
    ::close(fd);
    throw std::runtime_error(fmt::format("cannot open lock {}: {}", path, why));
  }
  return fd;
}

}  // namespace

LockFile::LockFile(std::string path, mode_t mode) : path_(std::move(path)) {
  dir_fd_ = open_trusted_dir(dir_of(path_));
  try {
    fd_ = open_in(dir_fd_, path_, mode);
  } catch (...) {
    ::close(dir_fd_);
    throw;
  }
}

LockFile::~LockFile() {
  ::close(fd_);
  ::close(dir_fd_);
}

bool LockFile::try_lock() {
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return true;
  if (errno == EWOULDBLOCK) return false;
  throw std::runtime_error(fmt::format("cannot lock {}: {}", path_, std::strerror(errno)));
}

std::optional<pid_t> LockFile::holder_pid() const { return flock_holder(fd_); }

std::string LockFile::holder() const {
  const auto pid = holder_pid();
  return pid ? std::to_string(*pid) : "?";
}

}  // namespace schedrig
