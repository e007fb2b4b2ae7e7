// /proc/stat (proc(5), Documentation/filesystems/proc.rst "1.8 Miscellaneous
// kernel statistics in /proc/stat"): per-CPU time in USER_HZ ticks,
// converted here to nanoseconds, and the system-wide counters.
#pragma once

#include <cstdint>
#include <map>
#include <string_view>

namespace schedrig::sampler {

// One "cpuN" line, every field in ns (ticks * 1e9 / USER_HZ).
// guest and guest_nice are already included in user and nice; not kept.
struct CpuTimes {
  std::uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0,
                steal = 0;
  std::uint64_t total() const {
    return user + nice + system + idle + iowait + irq + softirq + steal;
  }
  std::uint64_t idle_all() const { return idle + iowait; }
};

struct ProcStat {
  std::map<int, CpuTimes> cpus;  // keyed by CPU number; offline CPUs have no line
  std::uint64_t ctxt = 0;        // context switches since boot
  std::uint64_t intr = 0;        // interrupts since boot (first number of "intr")
  std::uint64_t processes = 0;   // forks since boot
  std::uint32_t procs_running = 0;
  std::uint32_t procs_blocked = 0;
};

// Parses the file's text. `ticks_per_s` is sysconf(_SC_CLK_TCK) (USER_HZ,
// 100 on every Linux ABI). Throws SamplerError (kFailed) on a malformed cpu line
// or when no "cpuN" line and no ctxt line exist (not /proc/stat).
ProcStat parse_proc_stat(std::string_view text, long ticks_per_s);

// sysconf(_SC_CLK_TCK), 100 when it fails.
long user_hz();

}  // namespace schedrig::sampler
