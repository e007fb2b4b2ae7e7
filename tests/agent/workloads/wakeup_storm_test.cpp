#include "agent/workloads/wakeup_storm.h"

#include <thread>

#include <gtest/gtest.h>

#include "tests/agent/workloads/test_support.h"

namespace schedrig::workloads {
namespace {

using namespace std::chrono_literals;
using test::allowed_cpus;
using test::thread_count;

void expect_ordered(const LatencyHistogram& h) {
  EXPECT_LE(h.quantile_ns(0.5), h.quantile_ns(0.9));
  EXPECT_LE(h.quantile_ns(0.9), h.quantile_ns(0.99));
  EXPECT_LE(h.quantile_ns(0.99), h.quantile_ns(0.999));
  EXPECT_LE(h.quantile_ns(0.999), h.quantile_ns(1.0));
}

TEST(WakeupStorm, ShortRunCountsRequestsAndOrdersPercentiles) {
  const int threads_before = thread_count();
  WakeupParams p;
  p.message_threads = 1;
  p.workers_per_message = 2;
  p.cpus = allowed_cpus();
  p.duration = 300ms;
  test::WindowRecorder window;
  p.observer = window.observer();
  WakeupResult r = run_wakeup_storm(p);
  EXPECT_EQ(window.opened, 1);
  EXPECT_EQ(window.closed, 1);
  EXPECT_EQ(window.tasks.size(), 3u);  // 1 message thread + 2 workers
  EXPECT_TRUE(window.all_alive);
  EXPECT_GT(window.ops_after_100ms, 0u);
  EXPECT_LE(window.ops_after_100ms, r.requests);
  ASSERT_GT(r.requests, 0u);
  EXPECT_GE(r.duration_s, 0.3);
  EXPECT_LT(r.duration_s, 2.0);
  // RPS is requests / window, exactly (the 1 % of the issue is slack to spare).
  EXPECT_NEAR(r.requests_per_s, static_cast<double>(r.requests) / r.duration_s,
              r.requests_per_s * 0.01);
  // One request-latency sample per counted request; one wakeup sample per
  // request whose worker slept, the others are early replies.
  EXPECT_EQ(r.wakeup_latency.count() + r.early_replies, r.requests);
  EXPECT_EQ(r.request_latency.count(), r.requests);
  expect_ordered(r.wakeup_latency);
  expect_ordered(r.request_latency);
  EXPECT_GT(r.wakeup_latency.quantile_ns(0.5), 0);
  EXPECT_EQ(thread_count(), threads_before);  // every thread joined
}

// As schbench -M auto runs: message thread i on PU i, workers on every PU.
TEST(WakeupStorm, SplitsCpusLikeSchbenchMAuto) {
  CpuSplit s = split_cpus({0, 1, 2, 3}, 1);
  EXPECT_EQ(s.message_cpus, std::vector<int>({0}));
  EXPECT_EQ(s.worker_cpus, std::vector<int>({0, 1, 2, 3}));
  s = split_cpus({4, 5, 6, 7, 8}, 2);
  EXPECT_EQ(s.message_cpus, std::vector<int>({4, 5}));
  EXPECT_EQ(s.worker_cpus, std::vector<int>({4, 5, 6, 7, 8}));
  s = split_cpus({0, 1}, 4);  // fewer PUs than message threads: i on PU i % n
  EXPECT_EQ(s.message_cpus, std::vector<int>({0, 1}));
  EXPECT_EQ(s.worker_cpus, std::vector<int>({0, 1}));
  s = split_cpus({3}, 1);
  EXPECT_EQ(s.message_cpus, std::vector<int>({3}));
  EXPECT_EQ(s.worker_cpus, std::vector<int>({3}));
}

TEST(WakeupStorm, GivenSplitIsUsedAsIs) {
  std::vector<int> cpus = allowed_cpus();
  WakeupParams p;
  p.cpus = cpus;
  p.message_cpus = {cpus.back()};
  p.worker_cpus = {cpus.front()};
  p.duration = 150ms;
  WakeupResult r = run_wakeup_storm(p);
  EXPECT_EQ(r.message_cpus, p.message_cpus);
  EXPECT_EQ(r.worker_cpus, p.worker_cpus);
  EXPECT_GT(r.requests, 0u);
}

TEST(WakeupStorm, ThinkOpsLengthenRequests) {
  WakeupParams p;
  p.cpus = allowed_cpus();
  p.think_ops = 100;
  p.duration = 150ms;
  WakeupResult r = run_wakeup_storm(p);
  ASSERT_GT(r.requests, 0u);
  // 100 matrix products take well over a microsecond on any machine.
  EXPECT_GT(r.request_latency.quantile_ns(0.5), 1000);
}

TEST(WakeupStorm, ReportsSchedulerDelayFromSchedstat) {
  if (!read_schedstat(current_tid())) GTEST_SKIP() << "no /proc/self/task/TID/schedstat";
  WakeupParams p;
  p.cpus = allowed_cpus();
  p.duration = 150ms;
  WakeupResult r = run_wakeup_storm(p);
  ASSERT_TRUE(r.message_delay.has_value());
  ASSERT_TRUE(r.worker_delay.has_value());
  EXPECT_GT(r.worker_delay->run_ns, 0u);
  EXPECT_GE(r.worker_delay->mean_delay_us, 0.0);
}

TEST(WakeupStorm, StopFlagEndsTheRunEarlyAndJoinsEveryThread) {
  const int threads_before = thread_count();
  WakeupParams p;
  p.message_threads = 2;
  p.workers_per_message = 4;
  p.cpus = allowed_cpus();
  p.duration = 60s;
  auto [r, elapsed] = test::run_stopped_after(
      200ms, [&](const std::atomic<bool>* stop) { return run_wakeup_storm(p, stop); });
  EXPECT_LT(elapsed, 5s);
  EXPECT_GT(r.requests, 0u);
  EXPECT_EQ(thread_count(), threads_before);
}

TEST(WakeupStorm, UnpinnablePuIsAWorkloadErrorAndLeavesNoThread) {
  const int threads_before = thread_count();
  WakeupParams p;
  p.cpus = allowed_cpus();
  p.message_cpus = {p.cpus.front()};
  p.worker_cpus = {test::disallowed_pu()};  // message thread starts, workers cannot
  p.duration = 100ms;
  try {
    run_wakeup_storm(p);
    FAIL() << "expected WorkloadError";
  } catch (const WorkloadError& e) {
    EXPECT_NE(std::string(e.what()).find("wakeup: worker 1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(thread_count(), threads_before);
}

}  // namespace
}  // namespace schedrig::workloads
