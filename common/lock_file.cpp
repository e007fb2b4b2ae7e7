#include "common/lock_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace schedrig {

LockFile::LockFile(std::string path, mode_t mode) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode);
  if (fd_ < 0) {
    throw std::runtime_error(fmt::format("cannot open lock {}: {}", path_, std::strerror(errno)));
  }
}

LockFile::~LockFile() { ::close(fd_); }

bool LockFile::try_lock() {
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) return false;
    throw std::runtime_error(fmt::format("cannot lock {}: {}", path_, std::strerror(errno)));
  }
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, pid.data(), pid.size(), 0);
  return true;
}

std::string LockFile::holder() const {
  char holder[32] = {};
  const ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
  return n > 0 ? std::string(holder, std::strcspn(holder, "\n")) : "?";
}

}  // namespace schedrig
