// The kernel tasks of a tool's run: every thread of every process in its
// process group (a tool's own children stay in its group: stress-ng's
// stressors, hackbench's senders and receivers), so the sampler can take
// them as the workload's tasks for wait share (window_observer.h).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "common/procfs/task_id.h"

namespace schedrig::tools {

// Each thread under `proc_dir`/PID/task of the processes whose process
// group (field 5 of /proc/PID/stat, proc(5)) is `pgid`, in PID then TID
// order. Processes that exit during the scan are skipped.
std::vector<procfs::TaskId> process_group_tasks(pid_t pgid, const std::string& proc_dir = "/proc");

// Whether any process of group `pgid` still runs: one whose state (field 3
// of /proc/PID/stat) is not Z (a zombie) or X. A zombie runs no more; one
// that init has not reaped yet stays listed.
bool process_group_alive(pid_t pgid, const std::string& proc_dir = "/proc");

// The processes whose parent (field 4 of /proc/PID/stat) is `parent`,
// zombies included.
std::vector<pid_t> children_of(pid_t parent, const std::string& proc_dir = "/proc");

// process_group_tasks, taken again every `poll` until two scans in a row
// list as many tasks or `limit` has passed: a tool starts its threads and
// children just after exec. Returns the last scan.
std::vector<procfs::TaskId> settled_group_tasks(pid_t pgid, std::chrono::milliseconds poll,
                                                std::chrono::milliseconds limit,
                                                const std::string& proc_dir = "/proc");

}  // namespace schedrig::tools
