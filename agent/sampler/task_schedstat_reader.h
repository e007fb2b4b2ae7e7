// The workload threads the sampler watches: one kept-open
// ROOT/proc/PID/task/TID/schedstat per thread (common/procfs/task_schedstat.h
// for the format), re-read each tick.
#pragma once

#include <sys/types.h>

#include <map>
#include <vector>

#include "common/procfs/file_reader.h"
#include "common/procfs/root.h"
#include "common/procfs/task_id.h"
#include "common/procfs/task_schedstat.h"

namespace schedrig::sampler {

// Keeps one open file per watched thread. read() skips threads whose file
// cannot be read (the thread exited: ESRCH or ENOENT).
class TaskSchedstatReader {
 public:
  explicit TaskSchedstatReader(procfs::Root root) : root_(std::move(root)) {}
  // Replaces the watched set; files of threads still watched stay open.
  void watch(const std::vector<procfs::TaskId>& tasks);
  std::map<pid_t, procfs::TaskSchedstat> read();  // keyed by TID

 private:
  procfs::Root root_;
  std::map<pid_t, procfs::FileReader> files_;  // keyed by TID
};

}  // namespace schedrig::sampler
