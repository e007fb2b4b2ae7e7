// The fork storm: stress-ng `--fork N --fork-max M` semantics
// (stress-ng/stress-fork.c). N creator processes each loop: fork up to M
// children that _exit(0) at once, then reap them all. Bogo ops = children
// reaped.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "agent/workloads/workload_error.h"

namespace schedrig::workloads {

// Where creators (and so their children) may run.
enum class PinMode {
  kSet,     // every creator gets the whole cpulist (stress-ng --taskset): the kernel places
  kPerCpu,  // creator i is pinned to cpus[i % cpus.size()]
};

struct ForkStormParams {
  unsigned workers = 1;   // creator processes, >= 1
  unsigned fork_max = 1;  // children per loop, >= 1
  std::vector<int> cpus;  // PU OS indexes, non-empty
  PinMode pin = PinMode::kSet;
  std::chrono::nanoseconds duration{std::chrono::seconds(1)};
};

struct ForkStormResult {
  std::uint64_t bogo_ops = 0;       // children forked and reaped
  std::uint64_t fork_failures = 0;  // fork(2) calls that failed (EAGAIN, ENOMEM)
  double duration_s = 0;            // from the start signal until every creator exited
  double bogo_ops_per_s = 0;        // bogo_ops / duration_s
};

// Runs the storm for params.duration, or until *stop becomes true (checked
// every 10 ms; e.g. set from a SIGINT handler). Creators get
// PR_SET_PDEATHSIG(SIGKILL) and ignore SIGINT, so they stop only through the
// shared stop flag (finishing their loop and reaping its children) or die
// with the caller. Every creator and child has been reaped when this returns:
// no zombie outlives it. Throws WorkloadError (after cleaning up) when fork(2)
// of a creator or sched_setaffinity(2) fails.
ForkStormResult run_fork_storm(const ForkStormParams& params,
                               const std::atomic<bool>* stop = nullptr);

}  // namespace schedrig::workloads
