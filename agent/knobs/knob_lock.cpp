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

namespace {

// The pid the holder wrote in the lock file; "?" when there is none.
std::string holder_pid(int fd) {
  char holder[32] = {};
  const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
  return n > 0 ? std::string(holder, strcspn(holder, "\n")) : "?";
}

}  // namespace

KnobLock::KnobLock(const procfs::Root& root, std::chrono::milliseconds wait,
                   const LockWaitObserver& on_wait) {
  const std::string path = lock_path(root);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) throw KnobError(fmt::format("cannot open lock {}: {}", path, std::strerror(errno)));
  const auto start = std::chrono::steady_clock::now();
  LockWait waiting{path, "", false, {}, wait};
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) {
      const int err = errno;
      ::close(fd_);
      fd_ = -1;
      throw KnobError(fmt::format("cannot lock {}: {}", path, std::strerror(err)));
    }
    if (waiting.holder.empty()) {
      waiting.holder = holder_pid(fd_);
      if (on_wait) on_wait(waiting);
    }
    if (std::chrono::steady_clock::now() >= start + wait) {
      const std::string holder = holder_pid(fd_);
      ::close(fd_);
      fd_ = -1;
      // Held by someone else: the knob cannot be reached now (exit 3).
      throw KnobUnavailable(
          fmt::format("another schedrig process (pid {}) is changing knobs; lock {}", holder, path),
          EWOULDBLOCK);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!waiting.holder.empty() && on_wait) {
    waiting.taken = true;
    waiting.waited = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    on_wait(waiting);
  }
  std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, pid.data(), pid.size(), 0);
}

KnobLock::~KnobLock() {
  if (fd_ >= 0) ::close(fd_);  // closing drops the flock
}

}  // namespace schedrig::knobs
