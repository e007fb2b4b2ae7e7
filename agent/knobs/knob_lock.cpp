#include "agent/knobs/knob_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "agent/knobs/knob.h"
#include "agent/knobs/knob_paths.h"

namespace schedrig::knobs {

KnobLock::KnobLock(const procfs::Root& root, std::chrono::milliseconds wait) {
  const std::string path = lock_path(root);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) throw KnobError(fmt::format("cannot open lock {}: {}", path, std::strerror(errno)));
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) {
      const int err = errno;
      ::close(fd_);
      fd_ = -1;
      throw KnobError(fmt::format("cannot lock {}: {}", path, std::strerror(err)));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      char holder[32] = {};
      ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
      ::close(fd_);
      fd_ = -1;
      // Held by someone else: the knob cannot be reached now (exit 3).
      throw KnobUnavailable(
          fmt::format("another schedrig process (pid {}) is changing knobs; lock {}",
                      n > 0 ? std::string(holder, strcspn(holder, "\n")) : "?", path),
          EWOULDBLOCK);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, pid.data(), pid.size(), 0);
}

KnobLock::~KnobLock() {
  if (fd_ >= 0) ::close(fd_);  // closing drops the flock
}

}  // namespace schedrig::knobs
