// A lock file whose holder the kernel names: flock(2) (LOCK_EX, never
// waiting) on a file in a trusted directory (common/trusted_dir.h), opened
// O_NOFOLLOW | O_CLOEXEC. The holder's pid comes from /proc/locks
// (common/lock_holder.h), never from the file's bytes, which nobody writes.
// The kernel drops the lock when the holder's descriptor closes, so a
// crashed holder never leaves it stuck, and a stale file blocks nobody.
// Used for the run lock (common/run_lock.h), the knob writer lock
// (agent/knobs/knob_lock.h) and the agent's state dir (one agent per state
// dir, agent/session/state_lock.h).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "common/trusted_dir.h"

namespace schedrig {

class LockFile {
 public:
  // Opens `path` read-write, creating it with `mode` when missing. Its
  // directory must pass open_trusted_dir (created 0755 when missing; throws
  // UntrustedDir). The file is opened relative to it with O_NOFOLLOW (a
  // planted link is refused: ELOOP) and must be a regular file owned by
  // this euid or root; else std::runtime_error "cannot open lock PATH: WHY".
  // An existing file of another mode is made `mode` (fchmod): lock files
  // are 0600, so nobody else can open one to flock it.
  LockFile(std::string path, mode_t mode);
  // The same for the file `name` in `base`/`rel_dir`, the directory opened
  // by open_trusted_dir_under (no link followed below `base`).
  LockFile(const std::string& base, const std::string& rel_dir, const std::string& name,
           mode_t mode);
  ~LockFile();  // closing drops the lock
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;

  // One try: true when the lock is now held by this descriptor, false when
  // another open file holds it. Throws std::runtime_error "cannot lock
  // PATH: ERRNO" on any other error.
  bool try_lock();

  // The pid holding the lock as the kernel reports it; empty when unknown
  // (not held, or /proc/locks unreadable).
  std::optional<pid_t> holder_pid() const;
  // holder_pid() as text; "?" when unknown.
  std::string holder() const;

  const std::string& path() const { return path_; }
  // The trusted directory, open while this lives (for files beside the lock).
  int dir_fd() const { return dir_fd_; }

 private:
  // Opens path_'s file in dir_fd_ (closed, and rethrown, on failure).
  void open_file(mode_t mode);

  std::string path_;
  int dir_fd_ = -1;
  int fd_ = -1;
};

}  // namespace schedrig
