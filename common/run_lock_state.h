// The run lock's state file (common/run_lock.h): "PID RUN_ID SINCE_NS\n" in
// LOCK.state beside the lock (run.lock.state), written by the holder, trusted only when it is
// a regular file of root or this euid, not group/other-writable, at most
// 4 KiB, read with O_NOFOLLOW.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

namespace schedrig {

struct RunLockState {
  pid_t pid = 0;
  std::string run_id;
  std::int64_t since_ns = 0;
};

// Writes `state` as `name` in the directory `dir_fd` (a temporary file
// created O_EXCL | O_NOFOLLOW, mode 0644, then renamed over it). A failure
// is logged, never thrown: the state only serves messages.
void write_run_lock_state(int dir_fd, const std::string& name, const RunLockState& state);

// The state in `name` under `dir_fd`; empty when absent, untrusted or malformed.
std::optional<RunLockState> read_run_lock_state(int dir_fd, const std::string& name);

}  // namespace schedrig
