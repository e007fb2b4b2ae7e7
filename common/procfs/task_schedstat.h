// Per-thread /proc/PID/task/TID/schedstat (sched-stats.rst "/proc/<pid>/
// schedstat"): "run_ns wait_ns timeslices". Present whenever the kernel
// has CONFIG_SCHED_INFO, even without /proc/schedstat; a freshly started
// thread reads "0 0 1".
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

#include "common/procfs/root.h"
#include "common/procfs/task_id.h"

namespace schedrig::procfs {

struct TaskSchedstat {
  std::uint64_t run_ns = 0;   // time on a CPU
  std::uint64_t wait_ns = 0;  // time runnable, waiting on a runqueue
  std::uint64_t timeslices = 0;
};

// Empty when the first line is not three numbers (spaces or tabs between).
std::optional<TaskSchedstat> parse_task_schedstat(std::string_view text);

// ROOT/proc/PID/task/TID/schedstat.
std::filesystem::path task_schedstat_path(const Root& root, const TaskId& task);

}  // namespace schedrig::procfs
