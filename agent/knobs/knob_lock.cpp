#include "agent/knobs/knob_lock.h"

#include <cerrno>

#include <fmt/format.h>

#include "agent/knobs/knob.h"
#include "agent/knobs/knob_paths.h"
#include "common/lock_wait.h"

namespace schedrig::knobs {

namespace {

// ROOT/run/schedrig/knobs.lock, 0600, no link followed below ROOT (a
// planted ROOT/run -> /tmp/elsewhere is refused).
std::unique_ptr<LockFile> open_lock(const procfs::Root& root) {
  try {
    return std::make_unique<LockFile>(root.dir().string(), kLockDir, kLockName, 0600);
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
    : lock_(open_lock(root)) {
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
