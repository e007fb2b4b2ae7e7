#include "agent/runner/prepare.h"

#include <gtest/gtest.h>

#include "common/plan/plan_yaml.h"
#include "tests/support/run_command.h"

namespace schedrig::runner {
namespace {

// A synthetic 2-package, 16-PU machine (hwloc synthetic syntax): no root needed.
topology::Topology machine() {
  return topology::load_topology({topology::Source::Kind::kSynthetic, "pack:2 core:4 pu:2"});
}

std::string rejection(const std::string& yaml) {
  try {
    prepare_cases(parse_plan_yaml(yaml, "test.yaml"), machine());
  } catch (const PlanRejected& e) {
    return e.what();
  }
  return "";
}

TEST(Prepare, ResolvesWorkloadDefaultsAndPlacement) {
  auto cases = prepare_cases(parse_plan_yaml(R"(
duration_s: 1
cases:
  - {name: f, workload: fork, params: {fork_max: 2}, placement: "cpus:4-7"}
  - {workload: fork}
)",
                                             "test.yaml"),
                             machine());
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name, "f");
  EXPECT_EQ(cases[0].params.at("fork_max"), "2");
  EXPECT_EQ(cases[0].params.at("workers"), "auto");
  EXPECT_EQ(cases[0].cpus, (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(cases[1].cpus.size(), 16u);
}

TEST(Prepare, RefusesUnknownWorkloadNamingTheCase) {
  std::string msg = rejection("duration_s: 1\ncases: [{name: x, workload: spin}]\n");
  EXPECT_NE(msg.find("case 'x'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'spin'"), std::string::npos) << msg;
}

TEST(Prepare, RefusesBadParameter) {
  std::string msg = rejection("duration_s: 1\ncases: [{workload: fork, params: {fork_max: -3}}]\n");
  EXPECT_NE(msg.find("'fork_max' = '-3'"), std::string::npos) << msg;
}

TEST(Prepare, RefusesPlacementOutsideTheMachine) {
  std::string msg = rejection("duration_s: 1\ncases: [{workload: fork, placement: 'cpus:99'}]\n");
  EXPECT_NE(msg.find("99"), std::string::npos) << msg;
}

// A plan from the wire is not parsed here: the agent checks its length
// itself and never builds more than kMaxScheduleSlots slots.
TEST(Prepare, RefusesAPlanOverTheScheduleBound) {
  v1::Plan plan = parse_plan_yaml("duration_s: 1\ncases: [{workload: fork}]\n", "test.yaml");
  for (int c = 1; c < 1024; ++c) *plan.add_cases() = plan.cases(0);
  for (int v = 1; v < 1024; ++v)
    plan.add_variants()->set_name(std::string(1, 'v').append(std::to_string(v)));
  plan.set_iterations(100000);
  try {
    prepare_cases(plan, machine());
    FAIL() << "expected PlanRejected";
  } catch (const PlanRejected& e) {
    EXPECT_EQ(e.code(), schedrig::v1::ERROR_BAD_PLAN);
    EXPECT_NE(std::string(e.what()).find("104857600000 slots; at most 1000000"), std::string::npos)
        << e.what();
  }
}

TEST(Prepare, BadKnobInAVariantIsBadInput) {
  schedrig::testing::TempDir dir;
  knobs::KnobController k(procfs::Root::under(dir.path()), dir.file("state"));
  auto plan = parse_plan_yaml(
      "duration_s: 1\ncases: [{workload: fork}]\nvariants: [{name: base}, {name: x, sysctl: "
      "{kernel.numa_balancing: 9}}]\n",
      "test.yaml");
  try {
    check_variants(plan, k);
    FAIL() << "expected PlanRejected";
  } catch (const PlanRejected& e) {
    EXPECT_EQ(e.code(), schedrig::v1::ERROR_BAD_PLAN);
    EXPECT_NE(std::string(e.what()).find("variant 'x'"), std::string::npos) << e.what();
  }
}

// A feature the box cannot change (no features file here) is refused as the
// plan wrote it, NO_ prefix included, naming the variant that asks for it
// and its key.
TEST(Prepare, AnUnavailableFeatureIsQuotedAsThePlanWroteIt) {
  schedrig::testing::TempDir dir;
  knobs::KnobController k(procfs::Root::under(dir.path()), dir.file("state"));
  auto plan = parse_plan_yaml(
      "duration_s: 1\ncases: [{workload: fork}]\nvariants: [{name: base}, {name: nr, features: "
      "[NO_NI_RANDOMM]}]\n",
      "test.yaml");
  try {
    check_variants(plan, k);
    FAIL() << "expected PlanRejected";
  } catch (const PlanRejected& e) {
    EXPECT_EQ(e.code(), schedrig::v1::ERROR_FACILITY_UNAVAILABLE);
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("variant 'nr': feature NO_NI_RANDOMM cannot be changed here: ", 0), 0u)
        << msg;
    EXPECT_EQ(e.key(), "variants[1].features[0]");  // for the plan's file and line
    EXPECT_EQ(e.value(), "NO_NI_RANDOMM");
  }
}

}  // namespace
}  // namespace schedrig::runner
