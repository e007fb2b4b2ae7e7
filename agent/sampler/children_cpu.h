// CPU time of the reaped children of the workload's processes: fields 16 and
// 17 (cutime, cstime, USER_HZ ticks) of ROOT/proc/PID/stat (proc(5)). A fork
// storm's children live too briefly to be watched one by one; their
// creators reap them, and the kernel adds each reaped child's CPU time to
// its parent's. The disturbance check (disturbance.h) counts it as the
// workload's own CPU.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "common/procfs/file_reader.h"
#include "common/procfs/root.h"
#include "common/procfs/task_id.h"

namespace schedrig::sampler {

// cutime + cstime of a /proc/PID/stat line, in ns (ticks * 1e9 /
// ticks_per_s); empty when the line is malformed. The comm field may hold
// spaces and parentheses: fields are counted after the last ')'.
std::optional<std::uint64_t> parse_children_cpu_ns(std::string_view text, long ticks_per_s);

// One kept-open ROOT/proc/PID/stat per distinct process of the watched tasks.
class ChildrenCpuReader {
 public:
  explicit ChildrenCpuReader(procfs::Root root);
  // Watches the processes of `tasks` (each pid once); files of processes
  // still watched stay open.
  void watch(const std::vector<procfs::TaskId>& tasks);
  // Children's CPU ns by pid; a process whose file cannot be read is left out.
  std::map<pid_t, std::uint64_t> read();

 private:
  procfs::Root root_;
  long hz_;
  std::map<pid_t, procfs::FileReader> files_;
};

}  // namespace schedrig::sampler
