#include "agent/knobs/knob_lock.h"

#include <cerrno>

#include <fmt/format.h>

#include "agent/knobs/knob.h"
#include "agent/knobs/knob_paths.h"
#include "common/lock_wait.h"

namespace schedrig::knobs {

namespace {

std::unique_ptr<LockFile> open_lock(const std::string& path) {
  try {
    return std::make_unique<LockFile>(path, 0644);
  } catch (const std::runtime_error& e) {  // also UntrustedDir
    throw KnobError(fmt::format("knob lock: {}", e.what()));
  }
}

// One wait; a failure other than "held" is a KnobError.
bool wait_for(LockFile& lock, std::chrono::milliseconds wait, const LockWaitObserver& on_wait) {
  const auto tell = [&](const LockWaitStatus& w) {
    if (!on_wait) return;
    on_wait({lock.path(), w.holder ? std::to_string(*w.holder) : "?", w.taken, w.waited, wait});
  };
  try {
    return wait_for_lock(lock, {wait, kLockReportEvery, nullptr}, tell);
  } catch (const std::runtime_error& e) {
    throw KnobError(e.what());
  }
}

}  // namespace

KnobLock::KnobLock(const procfs::Root& root, std::chrono::milliseconds wait,
                   const LockWaitObserver& on_wait)
    : lock_(open_lock(lock_path(root))) {
  if (!wait_for(*lock_, wait, on_wait)) {
    // Held by someone else: the knob cannot be reached now (exit 3).
    throw KnobUnavailable(
        fmt::format("another schedrig process (pid {}) is changing knobs; lock {}", lock_->holder(),
                    lock_->path()),
        EWOULDBLOCK);
  }
}

KnobLock::~KnobLock() = default;

}  // namespace schedrig::knobs
