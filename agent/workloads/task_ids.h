// The kernel ids of a workload's running threads (or creator processes),
// handed to the runner once they are started so the sampler can read their
// /proc/PID/task/TID/schedstat (issue #6: wait share of the workload).
#pragma once

#include <sys/types.h>

#include <functional>
#include <vector>

namespace schedrig::workloads {

struct TaskIds {
  pid_t pid = 0;  // thread group (process) id
  pid_t tid = 0;  // thread id; == pid for a single-threaded process
};

// Called at most once per run, from the workload's own thread, after every
// thread is up and before the measured window opens. Empty = nobody asks.
using TasksStarted = std::function<void(const std::vector<TaskIds>&)>;

}  // namespace schedrig::workloads
