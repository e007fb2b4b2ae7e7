// Zero work (agent/runner/zero_work.h): an iteration whose primary counter
// stayed at 0 fails with a reason naming the workload's unit.
#include "agent/runner/zero_work.h"

#include <gtest/gtest.h>

#include "agent/workloads/registry.h"

namespace schedrig::runner {
namespace {

workloads::WorkloadResult result_of(const char* name, double value, const char* unit) {
  workloads::WorkloadResult r;
  r.metrics.push_back({name, value, unit, workloads::Direction::kHigherIsBetter});
  r.metrics.push_back({"wakeup_latency_p50_us", 0, "us", workloads::Direction::kLowerIsBetter});
  return r;
}

TEST(ZeroWork, NoRequestInTheWindowIsAReasonNamingTheUnit) {
  EXPECT_EQ(zero_work_reason(result_of("requests_per_s", 0, "requests/s")),
            "no work completed in the measured window (0 requests)");
  EXPECT_EQ(zero_work_reason(result_of("ops_per_s", 0, "ops/s")),
            "no work completed in the measured window (0 ops)");
  EXPECT_EQ(zero_work_reason(result_of("requests_per_s", 0.5, "requests/s")), "");
  EXPECT_EQ(zero_work_reason({}), "");
}

TEST(ZeroWork, ATimeIsNotWork) {
  // hackbench and perf bench messaging report a time per run: 0 s is no
  // sign of zero work (and their runs fail when they print none).
  EXPECT_EQ(zero_work_reason(result_of("time_s", 0, "s")), "");
}

TEST(ZeroWork, EveryBuiltInWorkloadsPrimaryMetricIsARate) {
  // The reason names the unit before "/s": every built-in workload must keep it so.
  for (const auto& w : workloads::all_workloads()) {
    if (w.tool) continue;  // external tools report what the tool reports
    const std::string unit = w.unit;
    ASSERT_GT(unit.size(), 2u) << w.name;
    EXPECT_EQ(unit.substr(unit.size() - 2), "/s") << w.name;
  }
}

}  // namespace
}  // namespace schedrig::runner
