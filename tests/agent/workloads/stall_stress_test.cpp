// No stalls (issue 16 item 4): thousands of short runs of the futex
// protocols of wakeup and kv, half of them while an antagonist thread
// spins on a PU of the placement, with the stall watchdog at 5 ms: a lost
// wakeup (every thread asleep and no progress for 5 ms) fails the run
// naming it, and so fails the test. A 10 ms window may still complete no
// work when its threads are runnable but get no CPU (the antagonist and
// the rest of a parallel test run on 2 PUs): that is starvation, which the
// sampler and the zero-work rule report, not a protocol fault; at most 1 %
// of the runs may. Label `stress` (about 35 s).
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <optional>
#include <thread>

#include <gtest/gtest.h>

#include "agent/workloads/kv_store.h"
#include "agent/workloads/wakeup_storm.h"
#include "tests/agent/workloads/test_support.h"

namespace schedrig::workloads {
namespace {

using namespace std::chrono_literals;

// A thread spinning on `pu` while it lives: it steals CPU from whatever the
// scheduler puts beside it.
class Antagonist {
 public:
  explicit Antagonist(int pu)
      : thread_([this, pu] {
          cpu_set_t set;
          CPU_ZERO(&set);
          CPU_SET(pu, &set);
          ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set);
          while (!stop_.load(std::memory_order_relaxed)) {
          }
        }) {}
  ~Antagonist() {
    stop_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

template <typename Run>
void run_many(int runs, Run run) {
  const std::vector<int> cpus = test::allowed_cpus();
  int starved = 0;
  for (int i = 0; i < runs; ++i) {
    std::optional<Antagonist> hog;
    if (i % 2 == 1) hog.emplace(cpus[static_cast<std::size_t>(i / 2) % cpus.size()]);
    try {
      starved += run(cpus) == 0;
    } catch (const WorkloadError& e) {
      FAIL() << "run " << i << (hog ? " (antagonist on)" : "") << ": " << e.what();
    }
  }
  EXPECT_LE(starved, runs / 100) << starved << " of " << runs << " runs completed no work";
}

TEST(StallStress, ThousandsOfShortWakeupRunsAllKeepMakingProgress) {
  int layout = 0;
  run_many(1500, [&layout](const std::vector<int>& cpus) {
    static constexpr unsigned kLayouts[][2] = {{1, 1}, {1, 2}, {1, 8}, {2, 4}};
    WakeupParams p;
    p.message_threads = kLayouts[layout % 4][0];
    p.workers_per_message = kLayouts[layout % 4][1];
    ++layout;
    p.cpus = cpus;
    p.duration = 10ms;
    p.stall_after = 5ms;
    return run_wakeup_storm(p).requests;
  });
}

TEST(StallStress, ThousandsOfShortKvRunsAllKeepMakingProgress) {
  run_many(1000, [](const std::vector<int>& cpus) {
    KvParams p;
    p.clients = 4;
    p.executors = 2;
    p.keys = 1000;
    p.shards = 4;
    p.cpus = cpus;
    p.duration = 10ms;
    p.stall_after = 5ms;
    return run_kv(p).ops;
  });
}

}  // namespace
}  // namespace schedrig::workloads
