// The per-root writer lock (docs/architecture.md "Knobs"): flock(2) on
// ROOT/run/schedrig/knobs.lock (a common/lock_file.h LockFile: a trusted
// directory, O_NOFOLLOW, the holder's pid from the kernel), held by any
// process that writes knobs, so two runs, or a run and a console `knobs
// set`, never interleave. The kernel drops it when the holder dies, so a
// crash never leaves it stuck.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "common/lock_file.h"
#include "common/procfs/root.h"

namespace schedrig::knobs {

// A wait for the lock, as it starts, while it lasts and as it ends.
struct LockWait {
  std::string path;                     // the lock file
  std::string holder;                   // its holder's pid, from the kernel ("?" when unknown)
  bool taken = false;                   // false: waiting; true: the lock was taken after it
  std::chrono::milliseconds waited{0};  // so far (about 0 as it starts)
  std::chrono::milliseconds limit{0};   // how long the wait may last
};

// Told of a wait: when the lock is found held (once the kernel names the
// holder, or after 0.5 s naming "?"), whenever the holder changes, every
// 10 s while it lasts (common/lock_wait.h), and once more when it is taken
// (a wait that runs out throws instead). Called on the waiting thread.
using LockWaitObserver = std::function<void(const LockWait&)>;

class KnobLock {
 public:
  // Takes the lock, waiting up to `wait` and telling `on_wait` (if set) when
  // it has to. Throws KnobUnavailable (EWOULDBLOCK) naming the lock file and
  // the holder's pid when another process still holds it after the wait,
  // KnobError when the lock directory cannot be trusted or the file opened.
  KnobLock(const procfs::Root& root, std::chrono::milliseconds wait,
           const LockWaitObserver& on_wait = {});
  ~KnobLock();
  KnobLock(const KnobLock&) = delete;
  KnobLock& operator=(const KnobLock&) = delete;

 private:
  std::unique_ptr<LockFile> lock_;
};

}  // namespace schedrig::knobs
