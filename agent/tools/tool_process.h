// One run of an external tool as a child process (docs/workloads.md
// "External tools"): the placement's cpulist as its affinity before exec,
// its own process group, PR_SET_PDEATHSIG so it dies with the agent's
// thread, a private working directory, a fixed environment, and both output
// streams captured up to a bound. When `stop` is set the whole group is
// killed; when the tool exits, whatever it left in its group is killed too,
// and so is whatever left the group (setsid) and outlived its parent: the
// agent is a child subreaper while the tool runs and kills what it adopted.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace schedrig::tools {

struct ToolLaunch {
  std::string tool;               // "schbench": names the tool in errors
  std::string binary;             // absolute, checked by trusted_tool_binary (tool_binary.h)
  std::vector<std::string> argv;  // after the binary's path (argv[0] is the binary)
  std::vector<int> cpus;          // PU OS indexes: sched_setaffinity(2) before exec; non-empty
  std::string work_dir;           // the tool's cwd, HOME and TMPDIR
  const std::atomic<bool>* stop = nullptr;              // set: SIGKILL the process group
  std::chrono::milliseconds timeout{0};                 // > 0: SIGKILL the group after this long
  std::size_t max_output_bytes = std::size_t{4} << 20;  // per stream; more is dropped
  // Called on the caller's thread once the tool has exec'd, with its pid
  // (= its process group id). May be empty.
  std::function<void(pid_t)> started{};
};

struct ToolExit {
  int exit_code = -1;      // its exit status, -1 when it did not exit by itself
  int signal = 0;          // the signal that ended it, 0 when none
  bool stopped = false;    // `stop` was set and the group was killed
  bool timed_out = false;  // `timeout` passed and the group was killed
  bool truncated = false;  // a stream passed max_output_bytes (the rest is dropped)
  std::string stdout_text;
  std::string stderr_text;
  double wall_s = 0;  // from exec to exit
};

// Runs `launch` to its end. Throws ToolRunError naming the tool, the step
// (pipe, fork, chdir, affinity, exec) and errno when the tool cannot start.
ToolExit run_tool_process(const ToolLaunch& launch);

// "exited with status 2", "killed by signal 9 (Killed)", "stopped", "did
// not exit within its time limit (killed)": how a
// run ended, for errors.
std::string describe_exit(const ToolExit& e);

}  // namespace schedrig::tools
