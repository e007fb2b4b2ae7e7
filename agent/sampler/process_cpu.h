// CPU time of other processes over a measured window, counted process by
// process from ROOT/proc/PID/stat (proc(5)): utime + stime + cutime + cstime
// (fields 14-17, USER_HZ ticks), the flags (field 9: PF_KTHREAD marks a
// kernel thread), ppid (field 4) and starttime (field 22, which tells a
// reused pid from the process that had it). docs/sampling.md "Disturbed
// iterations".
//
// Busy time of the watched PUs minus the workload's own (disturbance.h)
// also holds work the workload causes but no workload task is charged for
// (a fork storm's teardown reads 11-16% "other" on an idle box). A scan of
// the processes names only what other processes ran: the check takes the
// smaller of the two, so both must see other work.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "common/procfs/root.h"

namespace schedrig::sampler {

// One process as its stat line says.
struct ProcessCpu {
  pid_t pid = 0, ppid = 0;
  std::uint64_t start_ticks = 0;  // starttime: with pid, the process's identity
  bool kernel_thread = false;     // PF_KTHREAD in flags
  std::uint64_t cpu_ns = 0;       // utime + stime + cutime + cstime
};

// Parses one ROOT/proc/PID/stat text of process `pid`; empty when malformed
// (the comm may hold spaces and parentheses: fields count after the last ')').
std::optional<ProcessCpu> parse_process_cpu(pid_t pid, std::string_view stat_text,
                                            long ticks_per_s);

// Every process under ROOT/proc (numeric directories), at most `max_processes`
// (the rest are left out); a process that ends while it is read is skipped.
std::vector<ProcessCpu> scan_processes(const procfs::Root& root,
                                       std::size_t max_processes = 1 << 16);

// CPU ns that user processes other than `own` and its descendants (the
// agent: its workloads and anything it runs for the variant) used between
// the scans `before` and `after`: per process in `after`, its cpu_ns minus
// the same process's in `before` (all of it for a process started since).
// Kernel threads are left out: their work is mostly done for the tasks
// that cause it (the workload's included). A process that ended in the
// window counts through its parent's cutime once reaped.
std::uint64_t other_processes_cpu_ns(const std::vector<ProcessCpu>& before,
                                     const std::vector<ProcessCpu>& after, pid_t own);

}  // namespace schedrig::sampler
