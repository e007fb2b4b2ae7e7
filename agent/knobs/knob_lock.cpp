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

}  // namespace

KnobLock::KnobLock(const procfs::Root& root, std::chrono::milliseconds wait,
                   const LockWaitObserver& on_wait)
    : lock_(open_lock(lock_path(root))) {
  const auto start = std::chrono::steady_clock::now();
  LockWait waiting{lock_->path(), "", false, {}, wait};
  while (!try_lock(*lock_)) {
    if (waiting.holder.empty()) {
      waiting.holder = lock_->holder();
      if (on_wait) on_wait(waiting);
    }
    if (std::chrono::steady_clock::now() >= start + wait) {
      // Held by someone else: the knob cannot be reached now (exit 3).
      throw KnobUnavailable(
          fmt::format("another schedrig process (pid {}) is changing knobs; lock {}",
                      lock_->holder(), lock_->path()),
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
