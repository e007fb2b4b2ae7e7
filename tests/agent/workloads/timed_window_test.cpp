#include "agent/workloads/timed_window.h"

#include <array>
#include <functional>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "agent/workloads/futex.h"
#include "agent/workloads/schedstat.h"
#include "agent/workloads/thread_state.h"

namespace schedrig::workloads {
namespace {

using namespace std::chrono_literals;

// wait_until_ready returns only once every thread has counted itself in,
// and stop_and_open wakes the threads parked on `go` with `stopping` set.
TEST(StartGate, WaitsForEveryThreadAndOpensForShutdown) {
  StartGate gate;
  std::atomic<unsigned> saw_stopping{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&] {
      gate.ready.fetch_add(1);
      futex_wait_while(&gate.go, 0);
      if (gate.stopping.load()) saw_stopping.fetch_add(1);
    });
  }
  wait_until_ready(gate, 3);
  EXPECT_EQ(gate.ready.load(), 3u);
  EXPECT_EQ(gate.go.load(), 0u);
  stop_and_open(gate);
  for (auto& t : threads) t.join();
  EXPECT_EQ(gate.go.load(), 1u);
  EXPECT_TRUE(gate.stopping.load());
  EXPECT_FALSE(gate.closed.load());
  EXPECT_EQ(saw_stopping.load(), 3u);
}

// Threads that do what `body` says once the gate opens, until `stop_all`;
// their tids for the window.
class Crew {
 public:
  Crew(int n, std::function<void(Crew&)> body) {
    for (int i = 0; i < n; ++i) {
      threads_.emplace_back([this, body] {
        tids_[slot_.fetch_add(1)] = current_tid();
        ready_.fetch_add(1);  // after the tid is written: the main thread reads it
        futex_wait_while(&go, 0);
        body(*this);
      });
    }
    while (ready_.load() < n) std::this_thread::yield();
  }
  ~Crew() {
    stopping = true;
    futex_post(&park);
    futex_wake_all(&park);
    for (auto& t : threads_) t.join();
  }
  WindowGroups groups() const {
    return {{tids_.begin(), tids_.begin() + 1},
            {tids_.begin() + 1, tids_.begin() + static_cast<long>(threads_.size())}};
  }

  std::atomic<std::uint32_t> go{0};
  std::atomic<bool> closed{false};
  std::atomic<bool> stopping{false};
  std::atomic<std::uint32_t> park{kBlocked};  // where the sleepers sleep
  std::atomic<std::uint64_t> ops{0};

 private:
  std::array<pid_t, 8> tids_{};
  std::atomic<int> slot_{0};
  std::atomic<int> ready_{0};
  std::vector<std::thread> threads_;
};

WindowResult window_over(Crew& crew, std::chrono::milliseconds d) {
  return run_timed_window(crew.go, crew.closed, crew.groups(), d, nullptr, {},
                          [&crew] { return crew.ops.load(); });
}

// Every thread asleep and no progress: a lost wakeup, reported, and the
// window closes early.
TEST(StallWatchdog, NoProgressWithEveryThreadAsleepClosesTheWindowSayingSo) {
  Crew crew(3, [](Crew& c) {
    c.ops.fetch_add(5);
    while (!c.stopping.load()) futex_wait_while(&c.park, kBlocked);
  });
  const WindowResult r = window_over(crew, 4000ms);
  EXPECT_LT(r.duration_s, 3.0);
  EXPECT_GE(r.duration_s, 1.0);
  EXPECT_NE(r.stalled.find("ms while all 3 threads wait (15 done): a lost wakeup"),
            std::string::npos)
      << r.stalled;
  EXPECT_EQ(r.stalled.rfind("no progress for ", 0), 0U) << r.stalled;
}

// Runnable threads that make no progress (a hog, starvation) are not a
// stall, nor is steady progress.
TEST(StallWatchdog, RunnableThreadsOrProgressAreNoStall) {
  {
    Crew spinners(2, [](Crew& c) {
      while (!c.stopping.load()) {
      }
    });
    const WindowResult r = window_over(spinners, 1300ms);
    EXPECT_EQ(r.stalled, "");
    EXPECT_GE(r.duration_s, 1.3);
  }
  Crew workers(2, [](Crew& c) {
    while (!c.stopping.load()) {
      c.ops.fetch_add(1);
      std::this_thread::sleep_for(2ms);
    }
  });
  const WindowResult r = window_over(workers, 1300ms);
  EXPECT_EQ(r.stalled, "");
  EXPECT_GE(r.duration_s, 1.3);
}

TEST(ThreadState, ReadsThisThreadAsRunningAndAGoneThreadAsUnknown) {
  EXPECT_EQ(thread_state(current_tid()), 'R');
  EXPECT_EQ(thread_state(999999999), '?');
  EXPECT_FALSE(all_waiting({}));
  EXPECT_FALSE(all_waiting({current_tid()}));
}

}  // namespace
}  // namespace schedrig::workloads
