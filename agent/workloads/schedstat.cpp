#include "agent/workloads/schedstat.h"

#include <sys/syscall.h>
#include <unistd.h>

#include "common/procfs/read_file.h"
#include "common/procfs/root.h"

namespace schedrig::workloads {

pid_t current_tid() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

namespace {

// Three numbers and their separators, with room to spare.
constexpr std::size_t kSchedstatMaxBytes = 256;

}  // namespace

std::optional<SchedStat> read_schedstat(pid_t tid) {
  const procfs::TaskId task{::getpid(), tid};
  const auto text = procfs::try_read_small_file(
      procfs::task_schedstat_path(procfs::Root::live(), task), nullptr, kSchedstatMaxBytes);
  if (!text) return std::nullopt;
  return procfs::parse_task_schedstat(*text);
}

std::vector<std::optional<SchedStat>> read_schedstats(const std::vector<pid_t>& tids) {
  std::vector<std::optional<SchedStat>> out;
  out.reserve(tids.size());
  for (pid_t t : tids) out.push_back(read_schedstat(t));
  return out;
}

std::optional<SchedDelay> sched_delay(const std::vector<std::optional<SchedStat>>& before,
                                      const std::vector<std::optional<SchedStat>>& after) {
  SchedDelay d;
  double delay_sum_us = 0;
  std::size_t with_slices = 0, with_both = 0;
  for (std::size_t i = 0; i < before.size() && i < after.size(); ++i) {
    if (!before[i] || !after[i]) continue;
    const SchedStat& a = *before[i];
    const SchedStat& b = *after[i];
    if (b.run_ns < a.run_ns || b.wait_ns < a.wait_ns || b.timeslices < a.timeslices) continue;
    ++with_both;
    d.run_ns += b.run_ns - a.run_ns;
    d.wait_ns += b.wait_ns - a.wait_ns;
    if (b.timeslices > a.timeslices) {
      delay_sum_us += static_cast<double>(b.wait_ns - a.wait_ns) /
                      static_cast<double>(b.timeslices - a.timeslices) / 1000.0;
      ++with_slices;
    }
  }
  if (with_both == 0) return std::nullopt;
  d.mean_delay_us = with_slices ? delay_sum_us / static_cast<double>(with_slices) : 0;
  return d;
}

}  // namespace schedrig::workloads
