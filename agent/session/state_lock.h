// One agent per state dir (docs/architecture.md "Command lines"): `connect`
// and `run` hold flock(2) on STATE/agent.lock (common/lock_file.h) for as
// long as they run, so two agents never share the knob journal or the spool.
#pragma once

#include <string>

#include "common/lock_file.h"

namespace schedrig::agent {

class StateDirLock {
 public:
  // Takes the lock on `state_dir` (an existing directory) at once, never
  // waiting. Throws CliError kUnreachable (exit 3) "state dir D is in use by
  // another schedrig-agent (pid N; lock D/agent.lock)" when another process
  // holds it, and kUsage (exit 2) naming the lock file when it cannot be
  // opened (a symbolic link, no permission).
  explicit StateDirLock(const std::string& state_dir);

 private:
  LockFile lock_;
};

}  // namespace schedrig::agent
