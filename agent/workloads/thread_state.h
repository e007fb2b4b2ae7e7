// A thread's scheduler state as /proc shows it (proc(5), /proc/PID/task/TID/
// stat field 3: R running or runnable, S sleeping, D uninterruptible, ...),
// for the stall watchdog of the thread workloads (timed_window.h).
#pragma once

#include <sys/types.h>

#include <vector>

namespace schedrig::workloads {

// The state letter of thread `tid` of this process; '?' when it cannot be
// read (the thread has exited).
char thread_state(pid_t tid);

// Whether every thread of `tids` is asleep, waiting (S or D): none is
// running or runnable, so none can make progress until it is woken.
bool all_waiting(const std::vector<pid_t>& tids);

}  // namespace schedrig::workloads
