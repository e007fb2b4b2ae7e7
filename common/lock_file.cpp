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

// What is wrong with the opened lock file `st` ("" when nothing): not a
// regular file, or owned by neither this euid nor root.
std::string problem_of(const struct stat& st) {
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (st.st_uid != ::geteuid() && st.st_uid != 0) {
    return fmt::format("owned by uid {}, not by root or this user", st.st_uid);
  }
  return "";
}

// Opens the lock file in `dir_fd`: no link, a regular file, ours or root's,
// and made `mode` when it is not (an old 0644 file would let anyone open and
// flock it).
int open_in(int dir_fd, const std::string& path, mode_t mode) {
  const std::string name = std::filesystem::path(path).filename().string();
  const int fd =
      ::openat(dir_fd, name.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, mode);
  if (fd < 0) {
    throw std::runtime_error(fmt::format("cannot open lock {}: {}", path, std::strerror(errno)));
  }
  struct stat st {};
  std::string why = ::fstat(fd, &st) != 0 ? std::strerror(errno) : problem_of(st);
  if (why.empty() && (st.st_mode & 07777) != mode && ::fchmod(fd, mode) != 0) {
    why = fmt::format("cannot chmod it {:04o}: {}", mode, std::strerror(errno));
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
  open_file(mode);
}

LockFile::LockFile(const std::string& base, const std::string& rel_dir, const std::string& name,
                   mode_t mode)
    : path_((std::filesystem::path(base) / rel_dir / name).string()) {
  dir_fd_ = open_trusted_dir_under(base, rel_dir);
  open_file(mode);
}

void LockFile::open_file(mode_t mode) {
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
