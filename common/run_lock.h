// The machine-wide run lock (issue #14; docs/architecture.md "Runner
// safety"): every run — `schedrig-agent run`, each run of `connect`, and so
// `lab`'s agent — holds it while it runs, so two runs on one box never
// overlap, knobs or not. A LockFile (common/lock_file.h: flock(2), the
// holder's pid from the kernel) at /run/schedrig/run.lock on the real /run,
// whatever the knob root, made 0600 so nobody else can open and flock it,
// and beside it the holder's state file, the lock's name plus ".state"
// (run.lock.state: 0644, written by temp file + rename, removed on release,
// read only when it is a regular file of root or this euid, not
// group/other-writable, and names the pid the kernel says holds the lock):
// which run holds it and since when.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "common/error.h"
#include "common/lock_file.h"
#include "common/lock_wait.h"

namespace schedrig {

inline constexpr const char* kRunLockPath = "/run/schedrig/run.lock";
// Points the lock elsewhere when no --run-lock is given (tests, sandboxes).
inline constexpr const char* kRunLockEnv = "SCHEDRIG_RUN_LOCK";

// --run-lock and --run-lock-timeout.
struct RunLockOptions {
  std::string path;  // "" = default_run_lock_path()
  // How long a run waits for the lock; 0 = as long as it takes; a positive
  // value is rounded up to whole milliseconds (at least 1 ms).
  double timeout_s = 0;
};

// $SCHEDRIG_RUN_LOCK when set and not empty, else kRunLockPath as root;
// a process that is not root (a developer's `lab`: it cannot write knobs)
// locks per user, $XDG_RUNTIME_DIR/schedrig/run.lock, else
// /tmp/schedrig-UID/run.lock (the directory checked as any lock's).
std::string default_run_lock_path();

// Who holds the lock: the pid from the kernel, run and time from the state file.
struct RunLockHolder {
  std::optional<pid_t> pid;
  std::string run_id;         // "" when the state file is absent, untrusted or another pid's
  std::int64_t since_ns = 0;  // CLOCK_REALTIME when taken; 0 unknown
};

// "waiting for run lock held by pid 4242 (run 3f2a..., since 2026-12-01
// 23:50:12 UTC)"; "pid ?" and "run unknown" for what is not known.
std::string run_lock_wait_message(const RunLockHolder& holder);

class RunLock {
 public:
  // Opens the lock file (options.path, else default_run_lock_path()); its
  // directory is created root-owned 0755 when missing. Throws UntrustedDir
  // (the directory: exit 2 for callers) or std::runtime_error (the file).
  explicit RunLock(const RunLockOptions& options);
  // Removes the state file when this took the lock, then drops the lock.
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

  // Takes the lock for `run_id`, waiting up to options.timeout_s (0: as long
  // as it takes) or until *stop; `tell(message, taken)` hears the wait as
  // wait_for_lock tells it: run_lock_wait_message every 10 s, then "took the
  // run lock after S s". Once taken, writes the state file. False when the
  // wait ran out or was stopped.
  bool acquire(const std::string& run_id, const std::atomic<bool>* stop,
               const std::function<void(const std::string& message, bool taken)>& tell);

  // The holder now.
  RunLockHolder holder() const;
  // "run lock PATH still held by pid N (run X, since T) after S s".
  std::string timeout_message() const;
  const std::string& path() const { return lock_->path(); }

 private:
  RunLockOptions options_;
  std::unique_ptr<LockFile> lock_;
  bool taken_ = false;  // acquire took the lock (and wrote the state file)
};

// Opens and takes the run lock for `run_id` (RunLock::acquire, `tell` as
// there). Throws schedrig::Error: kUsage when the timeout is NaN or
// negative, or the lock's directory or file cannot be trusted or opened (exit 2), kUnreachable when
// the wait ran out (exit 3, RunLock::timeout_message), kInterrupted when `stop` was set.
std::unique_ptr<RunLock> hold_run_lock(
    const RunLockOptions& options, const std::string& run_id, const std::atomic<bool>& stop,
    const std::function<void(const std::string& message, bool taken)>& tell);

}  // namespace schedrig
