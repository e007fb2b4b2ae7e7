// Waiting for a LockFile another process holds, and saying so while it
// lasts (docs/architecture.md "Runner safety"): one loop for the run lock
// (common/run_lock.h) and the knob lock (agent/knobs/knob_lock.h).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>

#include "common/lock_file.h"

namespace schedrig {

// A wait as it is told.
struct LockWaitStatus {
  std::optional<pid_t> holder;          // from the kernel; empty when unknown
  std::chrono::milliseconds waited{0};  // so far
  bool taken = false;                   // false: still waiting; true: taken after the wait
};
using LockWaitTell = std::function<void(const LockWaitStatus&)>;

// How often a wait is told again.
inline constexpr std::chrono::milliseconds kLockReportEvery{10'000};

struct LockWaitPolicy {
  std::chrono::milliseconds limit{0};  // how long to wait; 0 = as long as it takes
  std::chrono::milliseconds report_every = kLockReportEvery;
  const std::atomic<bool>* stop = nullptr;  // set: give up now
};

// Tries `lock` every 50 ms until it is taken (true), `policy.limit` passes
// or *policy.stop is set (false). `tell` (may be empty) hears of the wait
// when the lock is first found held (as soon as the kernel names the
// holder, or after 0.5 s without a name), whenever the holder changes,
// every report_every since it last told, and once when the lock is taken
// after a wait; a lock free at once is told nothing. Throws what
// LockFile::try_lock throws.
bool wait_for_lock(LockFile& lock, const LockWaitPolicy& policy, const LockWaitTell& tell);

}  // namespace schedrig
