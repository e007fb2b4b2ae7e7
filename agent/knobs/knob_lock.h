// The per-root writer lock (docs/architecture.md "Knobs"): flock(2) on
// ROOT/run/lock/schedrig-knobs.lock, held by any process that writes knobs,
// so two runs, or a run and a console `knobs set`, never interleave. The
// kernel drops it when the holder dies, so a crash never leaves it stuck.
#pragma once

#include <chrono>
#include "common/procfs/root.h"

namespace schedrig::knobs {

class KnobLock {
 public:
  // Takes the lock, waiting up to `wait`. Throws KnobError naming the lock
  // file and the pid recorded in it when another process holds it.
  KnobLock(const procfs::Root& root, std::chrono::milliseconds wait);
  ~KnobLock();
  KnobLock(const KnobLock&) = delete;
  KnobLock& operator=(const KnobLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace schedrig::knobs
