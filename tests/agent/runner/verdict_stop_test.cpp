// VerdictStop (agent/runner/verdict_stop.h): a plan's `stop: verdict` stops
// a case once each variant's verdict against the baseline is settled.
#include "agent/runner/verdict_stop.h"

#include <gtest/gtest.h>

#include "common/plan/plan_yaml.h"

namespace schedrig::runner {
namespace {

v1::Plan plan_of(const std::string& iterations, const std::string& gate = "") {
  return parse_plan_yaml("duration_s: 1\niterations: " + iterations +
                             "\ncases:\n  - workload: fork\n" + gate +
                             "  - workload: kv\nvariants: [{name: base}, {name: flip}]\n",
                         "t.yaml");
}

v1::IterationResult result(double primary, double other = 1) {
  v1::IterationResult r;
  r.set_status(v1::STATUS_OK);
  auto* m = r.add_metrics();
  m->set_name("ops_per_s");
  m->set_value(primary);
  auto* o = r.add_metrics();
  o->set_name("p99_us");
  o->set_value(other);
  return r;
}

// Feeds every slot of the schedule until `settle_case` is skipped; `value`
// gives (case, variant, round) -> the primary metric.
struct Fed {
  int slots_run = 0;
  std::vector<std::string> verdicts;
};

template <typename F>
Fed feed(const v1::Plan& plan, F value) {
  VerdictStop stop(plan);
  Fed fed;
  for (const Slot& slot : make_schedule(plan)) {
    if (stop.skips(slot)) continue;
    ++fed.slots_run;
    const auto v =
        stop.record(slot, result(value(slot.case_index, slot.variant_index, slot.iteration)));
    fed.verdicts.insert(fed.verdicts.end(), v.begin(), v.end());
  }
  return fed;
}

TEST(VerdictStop, ACaseWithAClearEffectStopsAtMinAndTheOtherRunsToMax) {
  const v1::Plan plan = plan_of("{min: 5, max: 12, stop: verdict}");
  const Fed fed = feed(plan, [](int c, int v, std::uint32_t round) {
    const double wobble = 1 + 0.01 * ((round * 7 + v * 3) % 5);  // +-2%, no pattern
    if (c == 0) return (v == 1 ? 200.0 : 100.0) * wobble;        // fork: +100%
    return 100.0 * (round % 2 == 0 ? 1.3 : 0.75) * (v == 1 ? 0.97 : 1.03) *
           (1 + 0.2 * ((round + v) % 3));  // kv: noise too big to settle
  });
  EXPECT_EQ(fed.slots_run, 2 * 5 + 2 * 12);  // fork stopped after round 5
  ASSERT_EQ(fed.verdicts.size(), 1u);
  EXPECT_EQ(fed.verdicts[0].rfind("variant flip: effect +", 0), 0u) << fed.verdicts[0];
  EXPECT_NE(fed.verdicts[0].find("after 5 rounds"), std::string::npos) << fed.verdicts[0];
}

TEST(VerdictStop, AFailedIterationKeepsTheCaseGoing) {
  const v1::Plan plan = plan_of("{min: 3, max: 6, stop: verdict}");
  VerdictStop stop(plan);
  int run = 0;
  for (const Slot& slot : make_schedule(plan)) {
    if (stop.skips(slot)) continue;
    ++run;
    v1::IterationResult r = result(slot.variant_index == 1 ? 300 : 100);
    if (slot.case_index == 0 && slot.iteration == 1) r.set_status(v1::STATUS_FAILED);
    stop.record(slot, r);
  }
  EXPECT_EQ(run, 2 * 6 + 2 * 3);  // fork ran every round; kv settled at 3
}

TEST(VerdictStop, TheGateMetricIsJudgedWithItsThreshold) {
  // The primary metric differs by 50%, the gated p99 not at all: no effect
  // on what the gate judges, settled inside its 5% threshold.
  const v1::Plan plan =
      plan_of("{min: 4, max: 8, stop: verdict}", "    gate: {metric: p99_us, threshold_pct: 5}\n");
  VerdictStop stop(plan);
  std::vector<std::string> verdicts;
  for (const Slot& slot : make_schedule(plan)) {
    if (stop.skips(slot) || slot.case_index != 0) continue;
    const auto v = stop.record(
        slot, result(slot.variant_index == 1 ? 150 : 100, 50 + 0.1 * (slot.iteration % 3)));
    verdicts.insert(verdicts.end(), v.begin(), v.end());
  }
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].rfind("variant flip: no effect +0.0%", 0), 0u) << verdicts[0];
}

TEST(VerdictStop, APlanWithoutTheRuleSkipsNothing) {
  const v1::Plan plan = plan_of("4");
  VerdictStop stop(plan);
  for (const Slot& slot : make_schedule(plan)) {
    EXPECT_FALSE(stop.skips(slot));
    EXPECT_TRUE(stop.record(slot, result(slot.variant_index == 1 ? 300 : 100)).empty());
  }
}

}  // namespace
}  // namespace schedrig::runner
