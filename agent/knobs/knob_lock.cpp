#include "agent/knobs/knob_lock.h"

#include <cerrno>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "agent/knobs/knob.h"
#include "agent/knobs/knob_paths.h"
#include "common/lock_file.h"

namespace schedrig::knobs {

namespace {

// How long a wait goes untold while the lock file names no holder yet (a
// holder between its flock and its pwrite), so the first report can name it.
constexpr std::chrono::milliseconds kUnknownHolderGrace{500};

std::unique_ptr<LockFile> open_lock(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  try {
    return std::make_unique<LockFile>(path, 0644);
  } catch (const std::runtime_error& e) {
    throw KnobError(e.what());
  }
}

// One try; a failure other than "held" is a KnobError.
bool try_lock(LockFile& lock) {
  try {
    return lock.try_lock();
  } catch (const std::runtime_error& e) {
    throw KnobError(e.what());
  }
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
                   const LockWaitObserver& on_wait)
    : lock_(open_lock(lock_path(root))) {
  const auto start = std::chrono::steady_clock::now();
  LockWait waiting{lock_->path(), "", false, {}, wait};
  while (!try_lock(*lock_)) {
    const auto waited = std::chrono::steady_clock::now() - start;
    const std::string holder = lock_->holder();
    if (tell_holder(holder, waiting.holder, waited)) {
      waiting.holder = holder;
      waiting.waited = std::chrono::duration_cast<std::chrono::milliseconds>(waited);
      if (on_wait) on_wait(waiting);
    }
    if (waited >= wait) {
      // Held by someone else: the knob cannot be reached now (exit 3).
      throw KnobUnavailable(
          fmt::format("another schedrig process (pid {}) is changing knobs; lock {}", holder,
                      lock_->path()),
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
}

KnobLock::~KnobLock() = default;

}  // namespace schedrig::knobs
