// What collector_load reads from /proc about a process (the serve child, or
// itself): resident memory, CPU time per thread, and the machine's load.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace schedrig::bench {

// VmRSS and VmHWM of /proc/PID/status, KiB. Throws std::runtime_error
// naming the file when it cannot be read.
struct MemoryKib {
  long rss = 0;
  long hwm = 0;
};
MemoryKib memory_of(pid_t pid);

// CPU time (user + system) of one thread of a process, seconds.
struct ThreadCpu {
  pid_t tid = 0;
  std::string name;  // comm
  double cpu_s = 0;
};
// Every thread of `pid` (from /proc/PID/task/*/stat), by tid; threads that
// end while being read are left out.
std::vector<ThreadCpu> thread_cpu_of(pid_t pid);
// The whole process: user + system seconds of /proc/PID/stat.
double process_cpu_s(pid_t pid);

// Per-thread CPU used between two thread_cpu_of() readings (threads in
// `after`; one missing from `before` counts from 0), highest first.
std::vector<ThreadCpu> thread_cpu_delta(const std::vector<ThreadCpu>& before,
                                        const std::vector<ThreadCpu>& after);

// The 1-minute load average of /proc/loadavg (-1 when unreadable).
double load_average_1m();

}  // namespace schedrig::bench
