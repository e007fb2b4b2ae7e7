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

// How long a wait goes untold while the lock file names no holder yet (a
// holder between its flock and its pwrite), so the first report can name it.
constexpr std::chrono::milliseconds kUnknownHolderGrace{500};

// The pid the holder wrote in the lock file (a fixed-width record, see
// write_holder); "?" when there is none.
std::string holder_pid(int fd) {
  char holder[32] = {};
  const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
  if (n <= 0) return "?";
  std::string pid(holder, std::strcspn(holder, "\n"));
  pid.erase(pid.find_last_not_of(' ') + 1);
  return pid.empty() ? "?" : pid;
}

// Records this process as the holder: its pid left-aligned in a fixed
// 10-character field and a newline, written at offset 0 in one pwrite and
// without truncating first, so a waiter reading the file at any moment sees
// either the previous holder's record or this one, never an empty file.
void write_holder(int fd) {
  const std::string record = fmt::format("{:<10}\n", ::getpid());
  (void)!::pwrite(fd, record.data(), record.size(), 0);
}

// True when a wait should be told (again): the holder read now differs from
// the one told, unless it is unknown and a report may still name it.
bool tell_holder(const std::string& now, const std::string& told,
                 std::chrono::steady_clock::duration waited) {
  if (now == told) return false;
  if (now != "?") return true;
  return told.empty() && waited >= kUnknownHolderGrace;
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
    const auto waited = std::chrono::steady_clock::now() - start;
    const std::string holder = holder_pid(fd_);
    if (tell_holder(holder, waiting.holder, waited)) {
      waiting.holder = holder;
      waiting.waited = std::chrono::duration_cast<std::chrono::milliseconds>(waited);
      if (on_wait) on_wait(waiting);
    }
    if (waited >= wait) {
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
  write_holder(fd_);
}

KnobLock::~KnobLock() {
  if (fd_ >= 0) ::close(fd_);  // closing drops the flock
}

}  // namespace schedrig::knobs
