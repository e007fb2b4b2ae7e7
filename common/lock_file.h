// A lock file that says who holds it: flock(2) (LOCK_EX, never waiting) on a
// file opened O_NOFOLLOW | O_CLOEXEC, whose holder writes its pid into it.
// The kernel drops the lock when the holder's descriptor closes, so a
// crashed holder never leaves it stuck. Used for the knob writer lock
// (agent/knobs/knob_lock.h) and the agent's state dir (one agent per state
// dir, agent/session/state_lock.h).
#pragma once

#include <sys/types.h>

#include <string>

namespace schedrig {

class LockFile {
 public:
  // Opens `path` read-write, creating it with `mode` when missing. Throws
  // std::runtime_error "cannot open lock PATH: ERRNO" (a symbolic link is
  // refused: ELOOP).
  LockFile(std::string path, mode_t mode);
  ~LockFile();  // closing drops the lock
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;

  // One try: true when the lock is now held (this process's pid is then
  // written into the file as a fixed-width record "PID<spaces>\n" of 11
  // bytes, one pwrite at offset 0, no truncation, so a reader never sees an
  // empty file), false when another process holds it. Throws
  // std::runtime_error "cannot lock PATH: ERRNO" on any other error.
  bool try_lock();

  // The pid the holder wrote in the file; "?" when there is none.
  std::string holder() const;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace schedrig
