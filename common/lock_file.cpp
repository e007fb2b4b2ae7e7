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
  // A fixed-width record at offset 0 in one pwrite, never truncated first: a
  // reader sees the previous holder's record or this one, never nothing.
  const std::string record = fmt::format("{:<10}\n", ::getpid());
  (void)!::pwrite(fd_, record.data(), record.size(), 0);
  return true;
}

std::string LockFile::holder() const {
  char holder[32] = {};
  const ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
  if (n <= 0) return "?";
  std::string pid(holder, std::strcspn(holder, "\n"));
  pid.erase(pid.find_last_not_of(' ') + 1);
  return pid.empty() ? "?" : pid;
}

}  // namespace schedrig
