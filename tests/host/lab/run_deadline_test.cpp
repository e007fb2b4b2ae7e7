// The lab's run deadline (host/lab/run_deadline.h) counts quiet waits and retries.
#include "host/lab/run_deadline.h"

#include <gtest/gtest.h>

#include "common/plan/plan_yaml.h"

namespace schedrig::lab {
namespace {

namespace v1 = schedrig::v1;

TEST(RunDeadline, CountsQuietWaitsAndRetries) {
  // 30 slots of 2 + 1 + 1 s: the old bound, 2 x 120 + 60 = 300 s, is what
  // aborted the default lab on a busy box after 21 of 30 (issue #14).
  v1::Plan plan = parse_plan_yaml(
      "duration_s: 2\nwarmup_s: 1\ncooldown_s: 1\ncases: [{workload: fork}]\n", "t.yaml");
  // Each slot: (4 s + the default 10 s quiet wait) x (1 + 1 retry), doubled.
  EXPECT_DOUBLE_EQ(run_allowed_s(plan, 30), 2 * 30 * (4 + 10) * 2 + 60.0);
  plan.mutable_quiet()->set_retries(0);
  plan.mutable_quiet()->set_timeout_s(0);  // no quiet check: the old bound
  EXPECT_DOUBLE_EQ(run_allowed_s(plan, 30), 2 * 30 * 4 + 60.0);
  plan.mutable_quiet()->set_retries(3);
  EXPECT_DOUBLE_EQ(run_allowed_s(plan, 30), 2 * 30 * 4 * 4 + 60.0);
}

TEST(RunDeadline, IsCappedAtTenYears) {
  v1::Plan plan = parse_plan_yaml("duration_s: 604800\ncases: [{workload: fork}]\n", "t.yaml");
  EXPECT_DOUBLE_EQ(run_allowed_s(plan, 1'000'000), 10 * 365 * 86400.0);
}

}  // namespace
}  // namespace schedrig::lab
