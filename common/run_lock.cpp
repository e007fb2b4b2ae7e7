#include "common/run_lock.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include <fmt/format.h>

#include "common/ids.h"
#include "common/printable.h"
#include "common/run_lock_state.h"

namespace schedrig {
namespace {

// run.lock -> run.lock.state, beside it: never the lock's own name, so the
// state's rename can never replace the lock's inode.
std::string state_name(const std::string& lock_path) {
  return std::filesystem::path(lock_path).filename().string() + ".state";
}

std::string utc_time(std::int64_t ns) {
  const std::time_t t = static_cast<std::time_t>(ns / 1'000'000'000);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return text;
}

std::string describe(const RunLockHolder& h) {
  const std::string pid = h.pid ? std::to_string(*h.pid) : "?";
  if (h.run_id.empty()) return fmt::format("pid {} (run unknown)", pid);
  return fmt::format("pid {} (run {}, since {})", pid, printable(h.run_id), utc_time(h.since_ns));
}

// A timeout in seconds as whole milliseconds, rounded up so that a positive
// one never becomes 0 (= as long as it takes).
std::chrono::milliseconds millis(double s) {
  if (!(s > 0)) return std::chrono::milliseconds(0);
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(s * 1e3)));
}

}  // namespace

std::string default_run_lock_path() {
  const char* env = std::getenv(kRunLockEnv);
  if (env && *env) return env;
  if (::geteuid() == 0) return kRunLockPath;
  // Not root: /run/schedrig is not ours to create, and we write no knobs.
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  if (runtime && *runtime) return std::string(runtime) + "/schedrig/run.lock";
  return fmt::format("/tmp/schedrig-{}/run.lock", ::geteuid());
}

std::string run_lock_wait_message(const RunLockHolder& holder) {
  return "waiting for run lock held by " + describe(holder);
}

RunLock::RunLock(const RunLockOptions& options)
    : options_(options),
      lock_(std::make_unique<LockFile>(
          options.path.empty() ? default_run_lock_path() : options.path, 0600)) {}

// Removes the state file while the lock is still held (the next holder
// writes its own only after taking it); closing the file then drops it.
RunLock::~RunLock() {
  if (taken_) ::unlinkat(lock_->dir_fd(), state_name(path()).c_str(), 0);
}

bool RunLock::acquire(const std::string& run_id, const std::atomic<bool>* stop,
                      const std::function<void(const std::string&, bool)>& tell) {
  const LockWaitPolicy policy{millis(options_.timeout_s), kLockReportEvery, stop};
  const bool taken = wait_for_lock(*lock_, policy, [&](const LockWaitStatus& w) {
    if (!tell) return;
    if (w.taken) {
      tell(fmt::format("took the run lock after {:.1f} s",
                       static_cast<double>(w.waited.count()) / 1e3),
           true);
    } else {
      tell(run_lock_wait_message(holder()), false);
    }
  });
  if (taken) {
    taken_ = true;
    write_run_lock_state(lock_->dir_fd(), state_name(path()),
                         {::getpid(), run_id, static_cast<std::int64_t>(wall_clock_ns())});
  }
  return taken;
}

RunLockHolder RunLock::holder() const {
  RunLockHolder h;
  h.pid = lock_->holder_pid();
  const auto state = read_run_lock_state(lock_->dir_fd(), state_name(path()));
  if (h.pid && state && state->pid == *h.pid) {
    h.run_id = state->run_id;
    h.since_ns = state->since_ns;
  }
  return h;
}

std::unique_ptr<RunLock> hold_run_lock(
    const RunLockOptions& options, const std::string& run_id, const std::atomic<bool>& stop,
    const std::function<void(const std::string& message, bool taken)>& tell) {
  if (std::isnan(options.timeout_s) || options.timeout_s < 0) {
    throw Error(
        ErrorKind::kUsage,
        fmt::format("run lock timeout {} is not a number of seconds >= 0", options.timeout_s));
  }
  std::unique_ptr<RunLock> lock;
  try {
    lock = std::make_unique<RunLock>(options);
  } catch (const std::runtime_error& e) {  // UntrustedDir or the file
    throw Error(ErrorKind::kUsage, fmt::format("run lock: {}", e.what()));
  }
  bool taken = false;
  try {
    taken = lock->acquire(run_id, &stop, tell);
  } catch (const std::runtime_error& e) {
    throw Error(ErrorKind::kUsage, fmt::format("run lock: {}", e.what()));
  }
  if (taken) return lock;
  if (stop.load()) {
    throw Error(ErrorKind::kInterrupted,
                fmt::format("stopped while waiting for the run lock ({})", lock->path()));
  }
  throw Error(ErrorKind::kUnreachable, lock->timeout_message());
}

std::string RunLock::timeout_message() const {
  return fmt::format("run lock {} still held by {} after {:g} s", path(), describe(holder()),
                     options_.timeout_s);
}

}  // namespace schedrig
