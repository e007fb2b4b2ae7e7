// Per-thread /proc/PID/task/TID/schedstat (sched-stats.rst "/proc/<pid>/
// schedstat"): "run_ns wait_ns timeslices". Present whenever the kernel
// has CONFIG_SCHED_INFO, even without /proc/schedstat; a freshly started
// thread reads "0 0 1".
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "agent/sampler/proc_file.h"

namespace schedrig::sampler {

struct TaskSchedstat {
  std::uint64_t run_ns = 0;   // time on a CPU
  std::uint64_t wait_ns = 0;  // time runnable, waiting on a runqueue
  std::uint64_t timeslices = 0;
};

// Empty when the text is not three numbers.
std::optional<TaskSchedstat> parse_task_schedstat(std::string_view text);

// Keeps one open file per watched thread. read() skips threads whose file
// cannot be read (the thread exited: ESRCH or ENOENT).
class TaskSchedstatReader {
 public:
  explicit TaskSchedstatReader(std::filesystem::path root) : root_(std::move(root)) {}
  // Replaces the watched set; files of threads still watched stay open.
  void watch(const std::vector<std::pair<pid_t, pid_t>>& pid_tids);
  std::map<pid_t, TaskSchedstat> read();  // keyed by TID

 private:
  std::filesystem::path root_;
  std::map<pid_t, ProcFile> files_;  // keyed by TID
};

}  // namespace schedrig::sampler
