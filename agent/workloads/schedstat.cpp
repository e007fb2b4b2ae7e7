#include "agent/workloads/schedstat.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <string_view>

namespace schedrig::workloads {

pid_t current_tid() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

std::optional<SchedStat> read_schedstat(pid_t tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", static_cast<int>(tid));
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[128];
  ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  if (n <= 0) return std::nullopt;
  return sampler::parse_task_schedstat(std::string_view(buf, static_cast<std::size_t>(n)));
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
