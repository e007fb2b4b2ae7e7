// Where knobs live under a procfs::Root (the live machine, or a fake tree in
// tests): ROOT/proc/sys/kernel/NAME for sysctls (dots become
// slashes), ROOT/sys/kernel/debug/sched/... for tunables, and the features
// file ROOT/sys/kernel/debug/sched/features (kernels before 5.13:
// ROOT/sys/kernel/debug/sched_features).
#pragma once

#include <string>

#include "agent/knobs/knob.h"
#include "common/procfs/root.h"

namespace schedrig::knobs {

// The features file to use: the new path if it exists, else the old one if
// that exists, else the new path (so errors name it). Refuses (KnobError) a
// path that, once symlinks are resolved, leaves canonical(ROOT)/sys/kernel/debug.
std::string features_path(const procfs::Root& root);

// The file of `setting` under `root`. Refuses (KnobError) a path that, once
// symlinks are resolved, leaves canonical(ROOT)/proc/sys or
// canonical(ROOT)/sys/kernel/debug (a link anywhere under ROOT that points
// out of it, ROOT/proc -> /proc, is refused).
std::string knob_path(const procfs::Root& root, const KnobSetting& setting);

// The per-root writer lock file: ROOT/run/schedrig/knobs.lock (knob_lock.h),
// kLockDir/kLockName under ROOT.
inline constexpr const char* kLockDir = "run/schedrig";
inline constexpr const char* kLockName = "knobs.lock";
std::string lock_path(const procfs::Root& root);

}  // namespace schedrig::knobs
