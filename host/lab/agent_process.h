// The local schedrig-agent that `schedrig lab` spawns, and how it is found
// (docs/architecture.md "Command lines": --agent PATH, then $SCHEDRIG_AGENT, then beside
// the schedrig executable).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace schedrig::lab {

// The agent binary to run. `flag` is --agent ("" when not given). Throws
// std::runtime_error naming every place it looked.
std::string find_agent_binary(const std::string& flag);

// A secret the child reads from fd `child_fd`: a pipe holding `secret`, its
// write end closed, so the child reads to EOF; the parent keeps no copy.
struct SecretFd {
  int child_fd = 3;
  std::string secret;  // at most a pipe's buffer (64 KiB)
};

// A child process; the destructor terminates (SIGTERM, then SIGKILL after
// 5 s) and reaps it if it is still running.
class AgentProcess {
 public:
  // posix_spawn(path, args), with `secret` on its fd when given. Throws
  // std::runtime_error naming path and errno.
  AgentProcess(const std::string& path, const std::vector<std::string>& args,
               const std::optional<SecretFd>& secret = std::nullopt);
  ~AgentProcess();
  AgentProcess(const AgentProcess&) = delete;
  AgentProcess& operator=(const AgentProcess&) = delete;

  // The exit status (as waitpid reports it) once the process has ended,
  // without blocking; nullopt while it runs.
  std::optional<int> poll();
  // Waits up to `grace` for it to exit, then SIGTERM, then SIGKILL; returns
  // the status.
  int stop(std::chrono::milliseconds grace);
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

}  // namespace schedrig::lab
