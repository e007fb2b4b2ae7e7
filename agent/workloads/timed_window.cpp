#include "agent/workloads/timed_window.h"

#include <unistd.h>

#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "agent/workloads/clock.h"
#include "agent/workloads/futex.h"
#include "agent/workloads/thread_state.h"

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

// Sleeps until `deadline` or *stop, watching `ops_so_far` for a stall.
// Returns the stall ("" when none).
std::string sleep_watching(std::chrono::steady_clock::time_point deadline,
                           const std::atomic<bool>* stop, const WindowGroups& groups,
                           const std::function<std::uint64_t()>& ops_so_far,
                           std::chrono::milliseconds stall_after) {
  using namespace std::chrono_literals;
  using Clock = std::chrono::steady_clock;
  std::vector<pid_t> tids = groups.first;
  tids.insert(tids.end(), groups.second.begin(), groups.second.end());
  std::uint64_t last = ops_so_far ? ops_so_far() : 0;
  auto moved_at = Clock::now();
  const std::chrono::nanoseconds poll =
      std::clamp<std::chrono::nanoseconds>(stall_after / 10, 100us, 10ms);
  while (Clock::now() < deadline) {
    if (stop && stop->load()) return "";
    std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(poll, deadline - Clock::now()));
    const std::uint64_t now_ops = ops_so_far ? ops_so_far() : 0;
    if (now_ops != last || !ops_so_far) {
      last = now_ops;
      moved_at = Clock::now();
    } else if (Clock::now() - moved_at >= stall_after && all_waiting(tids)) {
      return fmt::format(
          "no progress for {} ms while all {} threads wait ({} done): a lost wakeup",
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - moved_at).count(),
          tids.size(), now_ops);
    }
  }
  return "";
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
                              std::function<std::uint64_t()> ops_so_far,
                              std::chrono::milliseconds stall_after) {
  report_opened(groups, observer, ops_so_far);
  const auto first_before = read_schedstats(groups.first);
  const auto second_before = read_schedstats(groups.second);

  const auto t0 = std::chrono::steady_clock::now();
  go.store(1, std::memory_order_release);
  futex_wake_all(&go);
  WindowResult r;
  r.stalled = sleep_watching(t0 + duration, stop, groups, ops_so_far, stall_after);
  closed.store(true);
  const auto t1 = std::chrono::steady_clock::now();

  r.first_delay = sched_delay(first_before, read_schedstats(groups.first));
  r.second_delay = sched_delay(second_before, read_schedstats(groups.second));
  r.duration_s = std::chrono::duration<double>(t1 - t0).count();
  if (observer.closed) observer.closed();
  return r;
}

}  // namespace schedrig::workloads
