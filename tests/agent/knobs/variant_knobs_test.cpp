#include "agent/knobs/variant_knobs.h"

#include <gtest/gtest.h>

#include "common/plan/plan_yaml.h"

namespace schedrig::knobs {
namespace {

TEST(VariantSettings, EveryVariantSetsEveryKnobAnyVariantNames) {
  auto plan = parse_plan_yaml(R"(
duration_s: 1
cases: [{workload: fork}]
variants:
  - name: baseline
  - name: no-ni-random
    features: [NO_NI_RANDOM]
  - name: autogroup-off
    sysctl: {kernel.sched_autogroup_enabled: 0}
)",
                              "t.yaml");
  auto base = variant_settings(plan, 0);
  ASSERT_EQ(base.size(), 2u);
  EXPECT_EQ(base[0].name, "NI_RANDOM");
  EXPECT_EQ(base[0].value, "");  // "" = the journaled original
  EXPECT_EQ(base[1].name, "kernel.sched_autogroup_enabled");
  EXPECT_EQ(base[1].value, "");
  auto nr = variant_settings(plan, 1);
  EXPECT_EQ(nr[0].value, "off");
  EXPECT_EQ(nr[1].value, "");
  auto ag = variant_settings(plan, 2);
  EXPECT_EQ(ag[0].value, "");
  EXPECT_EQ(ag[1].value, "0");
}

TEST(VariantSettings, BadKnobNamesTheVariant) {
  auto plan = parse_plan_yaml(
      "duration_s: 1\ncases: [{workload: fork}]\nvariants: [{name: v, sysctl: {kernel.nope: 1}}]\n",
      "t.yaml");
  try {
    variant_settings(plan, 0);
    FAIL();
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find("variant 'v'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace schedrig::knobs
