#include "agent/workloads/timed_window.h"

#include <unistd.h>

#include <thread>

#include "agent/workloads/clock.h"
#include "agent/workloads/futex.h"

namespace schedrig::workloads {
namespace {

void report_opened(const WindowGroups& groups, const WindowObserver& observer,
                   std::function<std::uint64_t()> ops_so_far) {
  if (!observer.opened) return;
  const pid_t pid = ::getpid();
  WorkloadWindow window;
  for (const auto* group : {&groups.first, &groups.second}) {
    for (pid_t tid : *group) window.tasks.push_back({pid, tid});
  }
  window.ops_so_far = std::move(ops_so_far);
  observer.opened(window);
}

}  // namespace

void wait_until_ready(const StartGate& gate, unsigned total) {
  using namespace std::chrono_literals;
  while (gate.ready.load() < total) std::this_thread::sleep_for(100us);
}

void stop_and_open(StartGate& gate) {
  gate.stopping.store(true);
  gate.go.store(1);
  futex_wake_all(&gate.go);
}

WindowResult run_timed_window(std::atomic<std::uint32_t>& go, std::atomic<bool>& closed,
                              const WindowGroups& groups, std::chrono::nanoseconds duration,
                              const std::atomic<bool>* stop, const WindowObserver& observer,
                              std::function<std::uint64_t()> ops_so_far) {
  report_opened(groups, observer, std::move(ops_so_far));
  const auto first_before = read_schedstats(groups.first);
  const auto second_before = read_schedstats(groups.second);

  const auto t0 = std::chrono::steady_clock::now();
  go.store(1, std::memory_order_release);
  futex_wake_all(&go);
  sleep_until_or_stopped(t0 + duration, stop);
  closed.store(true);
  const auto t1 = std::chrono::steady_clock::now();

  WindowResult r;
  r.first_delay = sched_delay(first_before, read_schedstats(groups.first));
  r.second_delay = sched_delay(second_before, read_schedstats(groups.second));
  r.duration_s = std::chrono::duration<double>(t1 - t0).count();
  if (observer.closed) observer.closed();
  return r;
}

}  // namespace schedrig::workloads
