#include "agent/runner/antagonist.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

namespace schedrig::runner {
namespace {

using namespace std::chrono_literals;

// ns on CPU of a task of this process (/proc/self/task/TID/schedstat).
std::uint64_t cpu_ns(pid_t tid) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/schedstat");
  std::uint64_t ns = 0;
  in >> ns;
  return ns;
}

std::uint64_t hog_cpu_ns(unsigned duty_pct) {
  const Antagonist a({0}, duty_pct);
  const pid_t tid = a.tasks().at(0).tid;
  const std::uint64_t before = cpu_ns(tid);
  std::this_thread::sleep_for(400ms);
  return cpu_ns(tid) - before;
}

TEST(Antagonist, HogsAreThisProcesssThreadsAndGoAway) {
  pid_t tid = 0;
  {
    const Antagonist a({0, 0}, 30);
    ASSERT_EQ(a.tasks().size(), 2u);
    EXPECT_EQ(a.tasks()[0].pid, ::getpid());
    EXPECT_NE(a.tasks()[0].tid, a.tasks()[1].tid);
    tid = a.tasks()[0].tid;
    EXPECT_TRUE(std::filesystem::exists("/proc/self/task/" + std::to_string(tid)));
  }
  EXPECT_FALSE(std::filesystem::exists("/proc/self/task/" + std::to_string(tid)));
}

// The duty cycle is what it says: a 100% hog runs far more than a 10% one
// (ratios, not absolute times: the box is shared).
TEST(Antagonist, AFullDutyHogRunsMoreThanALightOne) {
  if (!std::filesystem::exists("/proc/self/schedstat") &&
      !std::filesystem::exists("/proc/self/task/" + std::to_string(::getpid()) + "/schedstat"))
    GTEST_SKIP() << "no per-task schedstat here";
  // Up to three tries: on a shared box under load (ctest -j2 beside a
  // build) one window's hog can be starved; a hog that never gets its duty
  // fails all three.
  std::uint64_t light = 0, full = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    light = hog_cpu_ns(10);
    full = hog_cpu_ns(100);
    if (full > 2 * light && full > 100'000'000u) break;
  }
  EXPECT_GT(full, 2 * light) << "10%: " << light << " ns, 100%: " << full << " ns";
  EXPECT_GT(full, 100'000'000u);  // > 100 ms of a 400 ms window
}

TEST(Antagonist, CpusMustLieInsideTheCase) {
  v1::Antagonist a;
  a.set_duty_pct(50);
  EXPECT_EQ(antagonist_cpus(a, {2, 3}), (std::vector<int>{2, 3}));  // "" = the case's PUs
  a.set_cpus("3");
  EXPECT_EQ(antagonist_cpus(a, {2, 3}), std::vector<int>{3});
  a.set_cpus("1-3");
  try {
    antagonist_cpus(a, {2, 3});
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "antagonist cpus 1 are not among the case's PUs 2-3");
  }
}

// The window's tasks include the hogs, which run only between opened and
// closed.
TEST(Antagonist, TheObserverAddsTheHogsToTheWindowForItsLength) {
  std::vector<procfs::TaskId> seen;
  bool closed = false;
  workloads::WindowObserver inner;
  inner.opened = [&](const workloads::WorkloadWindow& w) { seen = w.tasks; };
  inner.closed = [&] { closed = true; };
  v1::Antagonist a;
  a.set_duty_pct(20);
  workloads::WindowObserver o = with_antagonist(inner, a, {0});
  workloads::WorkloadWindow w;
  w.tasks.push_back({::getpid(), ::getpid()});
  o.opened(w);
  ASSERT_EQ(seen.size(), 2u);
  const pid_t hog = seen[1].tid;
  EXPECT_TRUE(std::filesystem::exists("/proc/self/task/" + std::to_string(hog)));
  o.closed();
  EXPECT_TRUE(closed);
  EXPECT_FALSE(std::filesystem::exists("/proc/self/task/" + std::to_string(hog)));

  a.set_duty_pct(0);  // no antagonist: the observer as it was
  workloads::WindowObserver same = with_antagonist(inner, a, {0});
  seen.clear();
  same.opened(w);
  EXPECT_EQ(seen.size(), 1u);
}

}  // namespace
}  // namespace schedrig::runner
