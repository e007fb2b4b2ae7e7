#include "agent/workloads/fork_storm.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include <gtest/gtest.h>

namespace schedrig::workloads {
namespace {

using namespace std::chrono_literals;

// True when this process has no child at all (not even a zombie).
bool no_children_left() { return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  ::sched_getaffinity(0, sizeof set, &set);
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

TEST(ForkStorm, ShortRunForksAndLeavesNoChildBehind) {
  ForkStormParams p;
  p.workers = 2;
  p.fork_max = 4;
  p.cpus = allowed_cpus();
  p.duration = 300ms;
  ForkStormResult r = run_fork_storm(p);
  EXPECT_GT(r.bogo_ops, 0u);
  EXPECT_GE(r.duration_s, 0.3);
  EXPECT_LT(r.duration_s, 5.0);
  EXPECT_NEAR(r.bogo_ops_per_s, r.bogo_ops / r.duration_s, 1e-6);
  // Every loop reaps all it forked: bogo ops come in whole loops per creator.
  EXPECT_EQ(r.fork_failures, 0u);
  EXPECT_TRUE(no_children_left());
}

TEST(ForkStorm, PerCpuPinsEachCreatorToOnePu) {
  ForkStormParams p;
  p.workers = 3;
  p.cpus = {allowed_cpus().front()};
  p.pin = PinMode::kPerCpu;
  p.duration = 200ms;
  EXPECT_GT(run_fork_storm(p).bogo_ops, 0u);
  EXPECT_TRUE(no_children_left());
}

TEST(ForkStorm, StopFlagEndsTheRunEarly) {
  ForkStormParams p;
  p.workers = 2;
  p.cpus = allowed_cpus();
  p.duration = 60s;
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(200ms);
    stop = true;
  });
  auto t0 = std::chrono::steady_clock::now();
  ForkStormResult r = run_fork_storm(p, &stop);
  stopper.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_GT(r.bogo_ops, 0u);
  EXPECT_TRUE(no_children_left());
}

TEST(ForkStorm, UnpinnablePuIsAWorkloadError) {
  ForkStormParams p;
  p.cpus = {CPU_SETSIZE - 1};  // beyond any machine this runs on
  p.duration = 100ms;
  try {
    run_fork_storm(p);
    FAIL() << "expected WorkloadError";
  } catch (const WorkloadError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot pin creator 1"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(no_children_left());
}

TEST(ForkStorm, ZeroWorkersIsRefused) {
  ForkStormParams p;
  p.workers = 0;
  p.cpus = {0};
  EXPECT_THROW(run_fork_storm(p), WorkloadError);
}

}  // namespace
}  // namespace schedrig::workloads
