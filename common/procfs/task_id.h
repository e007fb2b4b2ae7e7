// One kernel task: a thread of a thread group (process), as named under
// /proc/PID/task/TID. The one (pid, tid) type shared by workloads (which
// report their threads), the sampler (which watches them) and the
// per-thread schedstat reader.
#pragma once

#include <sys/types.h>

namespace schedrig::procfs {

struct TaskId {
  pid_t pid = 0;  // thread group (process) id
  pid_t tid = 0;  // thread id; == pid for a single-threaded process

  friend bool operator==(const TaskId& a, const TaskId& b) {
    return a.pid == b.pid && a.tid == b.tid;
  }
};

}  // namespace schedrig::procfs
