#include "agent/workloads/schedstat.h"

#include <chrono>
#include <cstdint>
#include <thread>

#include <gtest/gtest.h>

namespace schedrig::workloads {
namespace {

TEST(SchedStat, ReadsThisThreadsCounters) {
  // The kernel folds a running thread's time into its counters when it is
  // switched out: run a little, then sleep, so there is something to read.
  volatile std::uint64_t spin = 0;
  for (int i = 0; i < 1'000'000; ++i) spin = spin + static_cast<std::uint64_t>(i);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  auto s = read_schedstat(current_tid());
  if (!s) GTEST_SKIP() << "kernel without CONFIG_SCHED_INFO";
  EXPECT_GT(s->run_ns, 0u);
  EXPECT_GT(s->timeslices, 0u);
  EXPECT_FALSE(read_schedstat(999999999).has_value());  // no such thread
}

TEST(SchedStat, DelayIsWaitPerTimesliceAveragedOverThreads) {
  std::vector<std::optional<SchedStat>> before = {SchedStat{100, 1000, 10}, SchedStat{0, 0, 0},
                                                  std::nullopt};
  std::vector<std::optional<SchedStat>> after = {SchedStat{1100, 5000, 14},  // 4000 ns / 4
                                                 SchedStat{500, 9000, 3},    // 9000 ns / 3
                                                 SchedStat{1, 1, 1}};        // no "before"
  auto d = sched_delay(before, after);
  ASSERT_TRUE(d.has_value());
  EXPECT_DOUBLE_EQ(d->mean_delay_us, (1.0 + 3.0) / 2);
  EXPECT_EQ(d->run_ns, 1500u);
  EXPECT_EQ(d->wait_ns, 13000u);
  EXPECT_FALSE(sched_delay({std::nullopt}, {std::nullopt}).has_value());
}

}  // namespace
}  // namespace schedrig::workloads
