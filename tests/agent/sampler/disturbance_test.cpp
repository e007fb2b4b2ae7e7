// The disturbance check (agent/sampler/disturbance.h) over hand-made
// samples, and the children's CPU parser (children_cpu.h).
#include "agent/sampler/disturbance.h"

#include <gtest/gtest.h>

#include "agent/sampler/children_cpu.h"

namespace schedrig::sampler {
namespace {

// One 1 s interval on 2 watched PUs: `busy_ms` of their 2000 ms busy, the
// workload's threads ran `run_ms` and waited `wait_ms`, its children ran
// `children_ms`; every task on those PUs ran and waited `pu_active_ms`
// (/proc/schedstat fields 7 + 8; < 0: no /proc/schedstat).
DerivedSample interval(double busy_ms, double run_ms, double wait_ms, double pu_active_ms,
                       double children_ms = 0) {
  const auto ns = [](double ms) { return static_cast<std::uint64_t>(ms * 1e6); };
  DerivedSample s;
  s.interval_s = 1;
  s.watched_total_ns = 2'000'000'000;
  s.watched_busy_ns = ns(busy_ms);
  s.workload_run_ns = ns(run_ms);
  s.workload_wait_ns = ns(wait_ms);
  s.workload_children_ns = ns(children_ms);
  if (pu_active_ms >= 0) {
    s.watched_run_ns = ns(busy_ms);
    s.watched_delay_ns = ns(pu_active_ms - busy_ms);
  }
  return s;
}

TEST(Disturbance, AWindowWithOnlyTheWorkloadIsNotDisturbed) {
  // Two threads busy 95% each; 1% of the PUs for the sampler and kernel.
  const std::vector<DerivedSample> w(4, interval(1920, 1900, 50, 1970));
  const WindowLoad load = window_load(w);
  EXPECT_EQ(load.intervals, 4u);
  EXPECT_NEAR(load.other_cpu_pct, 1.0, 1e-9);
  ASSERT_TRUE(load.other_runnable);
  EXPECT_NEAR(*load.other_runnable, 0.02, 1e-9);  // (1970 - 1950) ms / 1 s
  EXPECT_EQ(disturbance_reason(load, {}), "");
}

TEST(Disturbance, OtherProcessesCpuAboveTheThresholdIsNamedWithItsNumbers) {
  // The workload ran 1500 of 2000 ms; 250 ms more were busy: 12.5%.
  const std::vector<DerivedSample> w(3, interval(1750, 1500, 0, 1750));
  const WindowLoad load = window_load(w);
  EXPECT_NEAR(load.other_cpu_pct, 12.5, 1e-9);
  EXPECT_EQ(disturbance_reason(load, {1, 5}), "other work: 12.5% CPU of other processes (> 5%)");
  EXPECT_EQ(disturbance_reason(load, {1, 15}), "");  // a plan's higher threshold
}

TEST(Disturbance, TasksNotTheWorkloadsWaitingOnItsPusAreCounted) {
  // The workload keeps 1 thread busy; other tasks ran 50 ms and waited
  // 2450 ms on the PUs: 2.5 of them on average, though they got 2.5% CPU.
  const std::vector<DerivedSample> w = {interval(1050, 1000, 0, 3500),
                                        interval(1050, 1000, 0, 3500)};
  const WindowLoad load = window_load(w);
  EXPECT_NEAR(load.other_cpu_pct, 2.5, 1e-9);
  ASSERT_TRUE(load.other_runnable);
  EXPECT_NEAR(*load.other_runnable, 2.5, 1e-9);
  EXPECT_EQ(disturbance_reason(load, {1, 5}),
            "other work: 2.5 tasks not the workload's running or waiting on its PUs on average "
            "(> 1)");
  EXPECT_EQ(disturbance_reason(load, {3, 5}), "");
}

TEST(Disturbance, BothSignsAreJoined) {
  const std::vector<DerivedSample> w(2, interval(2000, 1000, 0, 5000));
  EXPECT_EQ(disturbance_reason(window_load(w), {1, 5}),
            "other work: 50.0% CPU of other processes (> 5%); 4.0 tasks not the workload's "
            "running or waiting on its PUs on average (> 1)");
}

TEST(Disturbance, ARegisteredAntagonistThreadIsTheWorkloadsOwn) {
  // A variant's antagonist spins one PU and is registered with the
  // workload: its run and wait are the workload's, so nothing is disturbed.
  const std::vector<DerivedSample> w(3, interval(2000, 1990, 1000, 3000));
  const WindowLoad load = window_load(w);
  EXPECT_LT(load.other_cpu_pct, 1);
  ASSERT_TRUE(load.other_runnable);
  EXPECT_LT(*load.other_runnable, 0.1);
  EXPECT_EQ(disturbance_reason(load, {}), "");
}

TEST(Disturbance, ChildrenCpuIsTheWorkloadsAndLeavesTheRunnableCountOut) {
  // A fork storm: creators 600 ms, reaped children 1300 ms, a crowd of
  // children whose waiting is not known.
  const std::vector<DerivedSample> w(3, interval(1950, 600, 100, 9000, 1300));
  const WindowLoad load = window_load(w);
  EXPECT_NEAR(load.other_cpu_pct, 2.5, 1e-9);
  EXPECT_FALSE(load.other_runnable);
  EXPECT_EQ(disturbance_reason(load, {}), "");
}

TEST(Disturbance, WithoutProcSchedstatOnlyTheCpuIsJudged) {
  const std::vector<DerivedSample> w(2, interval(2000, 1000, 0, -1));
  const WindowLoad load = window_load(w);
  EXPECT_FALSE(load.other_runnable);
  EXPECT_EQ(disturbance_reason(load, {}), "other work: 50.0% CPU of other processes (> 5%)");
}

TEST(Disturbance, SamplesWithoutTheWorkloadsTimeAreNotJudged) {
  DerivedSample s = interval(2000, 0, 0, 9000);
  s.workload_run_ns.reset();
  s.workload_wait_ns.reset();
  const WindowLoad load = window_load({s, s});
  EXPECT_EQ(load.intervals, 0u);
  EXPECT_EQ(disturbance_reason(load, {}), "");
}

TEST(ChildrenCpu, CutimeAndCstimeOfAProcStatLine) {
  // A comm with spaces and a ')' in it; utime 7, stime 8, cutime 250, cstime 50.
  const std::string line =
      "4242 (fork (crea) tor) S 1 4242 4242 0 -1 4194560 100 0 0 0 7 8 250 50 20 0 1 0 100 "
      "1000 10 18446744073709551615\n";
  ASSERT_TRUE(parse_children_cpu_ns(line, 100));
  EXPECT_EQ(*parse_children_cpu_ns(line, 100), 3'000'000'000u);  // 300 ticks at 100 Hz
  EXPECT_FALSE(parse_children_cpu_ns("4242 (x) S 1 2 3\n", 100));
  EXPECT_FALSE(parse_children_cpu_ns("no parenthesis", 100));
  EXPECT_FALSE(parse_children_cpu_ns("1 (x) S 1 1 1 0 -1 0 0 0 0 0 7 8 x 50 20\n", 100));
}

}  // namespace
}  // namespace schedrig::sampler
