// The metric helpers the registry adapters share: names, units, directions
// and the runqueue wait share's arithmetic.
#include "agent/workloads/workload_metrics.h"

#include <gtest/gtest.h>

namespace schedrig::workloads {
namespace {

TEST(WorkloadMetrics, PercentilesAreNamedInMicrosecondsLowerIsBetter) {
  LatencyHistogram h;
  for (int i = 0; i < 100; ++i) h.record(50'000);  // 50 us
  std::vector<Metric> m;
  add_percentiles(m, "op_latency", h);
  ASSERT_EQ(m.size(), 5u);
  const char* names[] = {"op_latency_p50_us", "op_latency_p90_us", "op_latency_p99_us",
                         "op_latency_p99_9_us", "op_latency_max_us"};
  for (std::size_t i = 0; i < m.size(); ++i) {
    EXPECT_EQ(m[i].name, names[i]);
    EXPECT_EQ(m[i].unit, "us");
    EXPECT_EQ(m[i].direction, Direction::kLowerIsBetter);
    EXPECT_NEAR(m[i].value, 50.0, 50.0 * 0.05) << m[i].name;
  }
}

TEST(WorkloadMetrics, SchedDelayOnlyWhenKnown) {
  std::vector<Metric> m;
  add_sched_delay(m, "worker", std::nullopt);
  EXPECT_TRUE(m.empty());
  add_sched_delay(m, "worker", SchedDelay{12.5, 100, 50});
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].name, "worker_sched_delay_us");
  EXPECT_DOUBLE_EQ(m[0].value, 12.5);
}

TEST(WorkloadMetrics, WaitShareSumsBothGroups) {
  std::vector<Metric> m;
  add_wait_share(m, std::nullopt, std::nullopt);
  EXPECT_TRUE(m.empty());
  // (10 + 30) waiting out of (90 + 10 + 70 + 30) runnable.
  add_wait_share(m, SchedDelay{0, 90, 10}, SchedDelay{0, 70, 30});
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].name, "runqueue_wait_share");
  EXPECT_DOUBLE_EQ(m[0].value, 40.0 / 200.0);
  m.clear();
  add_wait_share(m, SchedDelay{}, std::nullopt);  // nothing ran: 0, not NaN
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].value, 0.0);
}

}  // namespace
}  // namespace schedrig::workloads
