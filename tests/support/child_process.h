// Test support: a background process (a server, an agent) that a test starts,
// watches and always stops: its stdout and stderr go to a log file, it dies
// with the test process (PR_SET_PDEATHSIG), and the destructor ends it with
// SIGTERM, then SIGKILL after a grace period.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace schedrig::testing {

class ChildProcess {
 public:
  // Starts argv[0] (a path) with `argv`, output appended to `log_path`.
  // Throws std::runtime_error when it cannot be started.
  ChildProcess(std::vector<std::string> argv, std::string log_path);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  const std::string& log_path() const { return log_path_; }
  // The whole log so far.
  std::string log() const;
  // Polls the log until it contains `text`, at most `limit`.
  bool wait_for_log(const std::string& text, std::chrono::milliseconds limit) const;

  // The exit code (128+N for signal N) once it has ended, waiting at most
  // `limit`; nothing while it still runs.
  std::optional<int> wait_for_exit(std::chrono::milliseconds limit);
  bool running() { return !wait_for_exit(std::chrono::milliseconds(0)).has_value(); }
  // SIGTERM, then SIGKILL after `grace`; the exit code.
  int stop(std::chrono::milliseconds grace = std::chrono::seconds(5));

 private:
  pid_t pid_ = -1;
  std::string log_path_;
  std::optional<int> exit_code_;
};

}  // namespace schedrig::testing
