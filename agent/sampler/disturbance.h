// Was a measured window disturbed by other work? (issue #14; docs/sampling.md
// "Disturbed iterations"). Pure functions over the window's samples: the
// runner decides what to do with the answer (retry, record).
//
// The workload's own work is what its registered tasks did (workloads tell
// the runner their threads or creator processes through the WindowObserver)
// plus the CPU time of children those processes reaped (a fork storm's
// children). Anything the agent runs as part of the variant and registers
// with the workload, such as an antagonist thread, is therefore the
// workload's own and never disturbance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agent/sampler/sample.h"

namespace schedrig::sampler {

// The window summed over its samples.
struct WindowLoad {
  std::size_t intervals = 0;  // samples with the workload's time (others are not counted)
  // Busy CPU of the watched PUs minus the workload's own, % of their CPU time.
  double other_cpu_pct = 0;
  // Tasks not the workload's that were running or waiting to run on the
  // watched PUs, on average: (Σ run + run_delay of those PUs, /proc/schedstat
  // fields 7 and 8, minus the workload threads' run + wait, from their own
  // schedstat) / window length; never below 0. Both sides come from the
  // kernel's one sched_info accounting, so they agree (procs_running, an
  // instant's count, read 1-2 above the workload's average for 8-64
  // threads that sleep and wake often, and ~10 for kv's 128 clients, with
  // no other CPU use to match: docs/sampling.md). Empty without
  // /proc/schedstat (a kernel without CONFIG_SCHEDSTATS), or when the
  // workload's processes reaped children in the window: how long those
  // waited to run is not known, so a fork storm's children cannot be told
  // from other tasks.
  std::optional<double> other_runnable;
  // Other user processes' CPU from two scans of /proc/PID/stat around the
  // window (process_cpu.h), % of the watched PUs' time; empty when not
  // scanned. other_cpu_pct is capped by it: both must see other work.
  std::optional<double> other_processes_cpu_pct;
};

// Sums `samples`; intervals == 0 when none carries the workload's time.
WindowLoad window_load(const std::vector<DerivedSample>& samples);

// Records the process scan's count in `load`: `other_ns` of other
// processes' CPU over `window_s` on `pus` PUs (a share above 100% is
// capped: those processes also ran on other PUs), and lowers
// other_cpu_pct to it. Nothing when window_s or pus is 0.
void apply_process_scan(WindowLoad& load, std::uint64_t other_ns, double window_s, std::size_t pus);

// Limits of other work in a window.
struct DisturbanceLimits {
  double max_other_runnable = 1;  // quiet.max_runnable
  double max_other_cpu_pct = 5;   // quiet.other_cpu_pct (common/plan/quiet.h)
};

// Why `load` is disturbed, "" when it is not (or when no interval was
// measured): "other work: 12.5% CPU of other processes (> 5%)", "other
// work: 2.4 tasks not the workload's running or waiting on its PUs on
// average (> 1)", or both joined by "; ".
std::string disturbance_reason(const WindowLoad& load, const DisturbanceLimits& limits);

}  // namespace schedrig::sampler
