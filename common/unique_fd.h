// An owned file descriptor (-1 = none), closed on destruction: the one fd
// owner of the agent's and the host's own code (spool files, secret files,
// tool pipes).
#pragma once

#include <unistd.h>

namespace schedrig {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = other.fd_;
      other.fd_ = -1;
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  // Gives the fd up unclosed (to close it and see close's result).
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  // Closes the fd now (if any); the owner holds none after.
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

}  // namespace schedrig
