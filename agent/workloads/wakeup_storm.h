// The wakeup storm: the schbench model (github.com/masoncl/schbench,
// schbench.c: message_thread, worker_thread, msg_and_wait, xlist_wake_all).
//
// M message threads each own T worker threads. A worker's loop: mark its
// futex blocked, push itself on its message thread's lock-free list, post the
// message thread's futex, sleep on its own futex; once woken it does
// `think_ops` units of think work and counts one request. A message thread's
// loop: take its whole list, read the clock once, stamp that time into every
// listed worker and post each one's futex, then sleep on its own futex until
// a worker posts it. Nothing spins: every wait is FUTEX_WAIT.
//
// Measured (schbench's definitions):
//  - wakeup latency: message thread's clock read at the start of the list run
//    -> the worker's clock read right after its futex wait returns (post ->
//    worker running). One read per list run, as schbench does, so a waker
//    that gets preempted while waking shows up in the tail. Only requests
//    whose worker slept count: when the reply was posted before the worker
//    got to sleep, no wakeup happened (its "latency" is a few hundred ns of
//    cache-line transfer), and it is counted in early_replies instead.
//    schbench drops those too, by a different rule: it reads gettimeofday in
//    microseconds and records no delta of 0.
//  - request latency: the worker running after its wakeup -> its think work
//    done (schbench's work_start -> now). With think_ops = 0 it is the cost
//    of two clock reads, and grows with preemption during think work.
//  - requests_per_s: requests completed in the window / window length.
//  - per-thread scheduler delay from /proc/self/task/TID/schedstat deltas.
// Differences: no per-CPU spinlock around think work (schbench -L), no
// usleep in a request (schbench -s 0); one think op is one naive product of
// two 16x16 uint64 matrices (4096 multiply-adds, a 6 KiB per-worker
// footprint: schbench's do_some_math at -F 6).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "agent/workloads/latency_histogram.h"
#include "agent/workloads/schedstat.h"
#include "agent/workloads/timed_window.h"
#include "agent/workloads/window_observer.h"
#include "agent/workloads/workload_error.h"

namespace schedrig::workloads {

struct WakeupParams {
  unsigned message_threads = 1;      // M, >= 1
  unsigned workers_per_message = 1;  // T, >= 1
  unsigned think_ops = 0;            // think work units per request, 0 = none
  std::vector<int> cpus;             // the placement, non-empty
  // Optional split (placement split:K): message thread i runs on
  // message_cpus[i % size], workers on the whole worker_cpus. Both empty:
  // split_cpus(cpus, M).
  std::vector<int> message_cpus;
  std::vector<int> worker_cpus;
  std::chrono::nanoseconds duration{std::chrono::seconds(1)};
  WindowObserver observer;  // optional: told the window's threads and progress
  // The stall watchdog's limit (timed_window.h): no progress this long with
  // every thread asleep fails the run as a lost wakeup.
  std::chrono::milliseconds stall_after{kStallAfter};
};

// schbench -M auto on a cpulist, as schbench runs it: message thread i on
// cpus[i % n] and the workers on all of cpus, message PUs included
// (schbench's thread_auto_pin means to leave the message CPUs out of the
// workers' set, but an inner loop variable shadows its counter, so they
// stay in). Placement split:K gives each side PUs of its own.
struct CpuSplit {
  std::vector<int> message_cpus;
  std::vector<int> worker_cpus;
};
CpuSplit split_cpus(const std::vector<int>& cpus, unsigned message_threads);

struct WakeupResult {
  // Requests that completed while the window was open (a request that was
  // in flight when it closed may count); one histogram sample each.
  std::uint64_t requests = 0;
  double duration_s = 0;      // the window: start signal -> close
  double requests_per_s = 0;  // requests / duration_s
  // Counted requests whose reply was posted before the worker slept.
  std::uint64_t early_replies = 0;
  LatencyHistogram wakeup_latency;  // ns, one sample per counted request that slept
  // What schbench's wakeup histogram would hold (ns): the requests that
  // slept and the early replies of at least 1 us (schbench keeps every
  // delta of 1 us or more of its gettimeofday clock, slept or not).
  LatencyHistogram schbench_wakeup_latency;
  LatencyHistogram request_latency;         // ns, one sample per counted request
  std::optional<SchedDelay> message_delay;  // over the window; nullopt without schedstat
  std::optional<SchedDelay> worker_delay;
  std::vector<int> message_cpus;  // as run
  std::vector<int> worker_cpus;
};

// Runs the storm for params.duration or until *stop (checked every 10 ms).
// Every thread has been joined when this returns or throws. Throws
// WorkloadError for invalid params or a thread that cannot be started or
// pinned.
WakeupResult run_wakeup_storm(const WakeupParams& params, const std::atomic<bool>* stop = nullptr);

}  // namespace schedrig::workloads
