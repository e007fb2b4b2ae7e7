#include "agent/workloads/thread_group.h"

#include <gtest/gtest.h>

#include "agent/workloads/futex.h"
#include "agent/workloads/workload_error.h"
#include "tests/agent/workloads/test_support.h"

namespace schedrig::workloads {
namespace {

// Threads asleep on a futex are woken by the nudge and joined on
// destruction, also when a later spawn fails.
TEST(ThreadGroup, JoinsSleepingThreadsWhenASpawnFails) {
  const int before = test::thread_count();
  std::atomic<std::uint32_t> word{kBlocked};
  std::atomic<bool> stop{false};
  std::atomic<int> ran{0};
  try {
    ThreadGroup g([&] {
      stop = true;
      futex_post(&word);
    });
    for (int i = 0; i < 3; ++i) {
      g.spawn(
          test::allowed_cpus(),
          [&] {
            ++ran;
            while (!stop) {
              futex_wait_posted(&word);
              futex_post(&word);  // pass the wakeup on
            }
          },
          "test");
    }
    g.spawn(
        {test::disallowed_pu()}, [] {}, "test: pinned thread");
    FAIL() << "expected WorkloadError";
  } catch (const WorkloadError& e) {
    EXPECT_NE(std::string(e.what()).find("test: pinned thread: cannot start a thread on PUs"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(test::thread_count(), before);
}

TEST(ThreadGroup, ThreadsStartOnTheirPus) {
  std::vector<int> cpus = test::allowed_cpus();
  std::atomic<int> seen{-1};
  {
    ThreadGroup g([] {});
    g.spawn(
        {cpus.back()}, [&] { seen = sched_getcpu(); }, "test");
    g.join_all();
  }
  EXPECT_EQ(seen.load(), cpus.back());
}

}  // namespace
}  // namespace schedrig::workloads
