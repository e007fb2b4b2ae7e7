// Per-thread scheduler statistics of this process's threads, from the live
// /proc/PID/task/TID/schedstat (common/procfs/task_schedstat.h; kernel
// Documentation/scheduler/sched-stats.rst, "/proc/<pid>/schedstat"):
// three numbers, (1) time spent on the CPU (ns), (2) time spent waiting on a
// runqueue (ns), (3) number of timeslices run on this CPU. Present when the
// kernel has CONFIG_SCHED_INFO (schedstats or delay accounting).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "common/procfs/task_schedstat.h"

namespace schedrig::workloads {

// run_ns, wait_ns, timeslices: the procfs parse the sampler uses too.
using SchedStat = procfs::TaskSchedstat;

// The calling thread's kernel thread id (gettid(2)).
pid_t current_tid();

// Reads /proc/<getpid()>/task/<tid>/schedstat of a thread of this process;
// nullopt when the file is missing or malformed (thread gone, no
// CONFIG_SCHED_INFO).
std::optional<SchedStat> read_schedstat(pid_t tid);

// What a group of threads did between two snapshots.
struct SchedDelay {
  // Mean over threads of (wait delta / timeslice delta), in us: the
  // average time a thread waited each time before it got a CPU (schbench's
  // "sched delay", over the window instead of the thread's life). Threads
  // with no timeslice in the window are left out.
  double mean_delay_us = 0;
  std::uint64_t run_ns = 0;   // summed over threads
  std::uint64_t wait_ns = 0;  // summed over threads
};

// Deltas between `before` and `after` (same length, same threads; missing
// entries are skipped). nullopt when no thread had both snapshots.
std::optional<SchedDelay> sched_delay(const std::vector<std::optional<SchedStat>>& before,
                                      const std::vector<std::optional<SchedStat>>& after);

// Reads every tid's schedstat (entries nullopt where unreadable).
std::vector<std::optional<SchedStat>> read_schedstats(const std::vector<pid_t>& tids);

}  // namespace schedrig::workloads
