// The measured window of the thread workloads (wakeup, kv): every thread is
// parked on a start futex; the window opens it, lasts `duration` (or until
// *stop), then closes (threads stop counting but keep running until joined).
// Scheduler delay of two thread groups is taken across it from
// /proc/self/task/TID/schedstat (schedstat.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "agent/workloads/schedstat.h"
#include "agent/workloads/window_observer.h"

namespace schedrig::workloads {

// What every thread of a thread workload sees: the start futex the window
// opens, the stop flag, the end of the window and how many threads are parked.
struct StartGate {
  alignas(64) std::atomic<std::uint32_t> go{0};
  alignas(64) std::atomic<bool> stopping{false};
  std::atomic<bool> closed{false};  // the window is over: stop counting, keep running
  std::atomic<unsigned> ready{0};
};

// Polls `ready` every 100 us until `total` threads have counted themselves
// in (each does so once, before it parks on `go`).
void wait_until_ready(const StartGate& gate, unsigned total);

// Sets `stopping` and opens `go` (waking its futex waiters): the part of a
// ThreadGroup's stop_and_nudge every thread workload shares.
void stop_and_open(StartGate& gate);

// Both groups' thread ids, e.g. message threads and workers.
struct WindowGroups {
  std::vector<pid_t> first;
  std::vector<pid_t> second;
};

struct WindowResult {
  double duration_s = 0;  // open -> close, steady clock
  // Set when the stall watchdog closed the window early: "no progress for
  // 1000 ms while all 9 threads wait (412 done)". The workload joins its
  // threads (the nudge wakes them) and fails with it.
  std::string stalled;
  std::optional<SchedDelay> first_delay;   // sched_delay over the window
  std::optional<SchedDelay> second_delay;  // (nullopt without schedstat)
};

// Tells `observer.opened` every tid (as this process's threads) and
// `ops_so_far`, snapshots schedstat, stores 1 to `go` and wakes its futex
// waiters, sleeps, sets `closed`, snapshots again and calls
// `observer.closed`.
//
// While it sleeps it watches for a stall (issue 16 item 4): when
// `ops_so_far` has not moved for `stall_after` (polled every tenth of it, at
// most every 10 ms) and every thread of both
// groups is asleep (thread_state.h), nobody can make progress until woken,
// which is a lost wakeup, and the window closes early with `stalled` set.
// Threads that are runnable but do not run (a CPU hog, starvation) are not
// a stall: the sampler reports those.
// How long a workload may make no progress with every thread asleep.
inline constexpr std::chrono::milliseconds kStallAfter{1000};

WindowResult run_timed_window(std::atomic<std::uint32_t>& go, std::atomic<bool>& closed,
                              const WindowGroups& groups, std::chrono::nanoseconds duration,
                              const std::atomic<bool>* stop, const WindowObserver& observer,
                              std::function<std::uint64_t()> ops_so_far,
                              std::chrono::milliseconds stall_after = kStallAfter);

}  // namespace schedrig::workloads
