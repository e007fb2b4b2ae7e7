// Tests on this machine's real knobs. They share the ctest RESOURCE_LOCK
// `machine` with every test that may write them (lab end to end), so no
// parallel test journals a changed value as the original.
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

#include "agent/knobs/knob_controller.h"
#include "agent/knobs/knob_file.h"
#include "agent/runner/prepare.h"
#include "common/plan/plan_yaml.h"
#include "tests/support/run_command.h"

namespace schedrig::knobs {
namespace {

const char* kAutogroup = "/proc/sys/kernel/sched_autogroup_enabled";

TEST(MachineKnobs, AutogroupFlipsAndIsLeftAsFound) {
  Access a = probe_access(kAutogroup);
  if (!a.writable) GTEST_SKIP() << kAutogroup << " is not writable here";
  const std::string before = read_knob_file(kAutogroup);
  const std::string flipped = before == "1" ? "0" : "1";
  schedrig::testing::TempDir state;
  {
    KnobController k(procfs::Root::live(), state.path());
    k.apply({{KnobKind::kSysctl, "kernel.sched_autogroup_enabled", flipped}});
    EXPECT_EQ(read_knob_file(kAutogroup), flipped);
    k.restore();
  }
  EXPECT_EQ(read_knob_file(kAutogroup), before);
}

TEST(MachineKnobs, FeaturePlanIsRefusedUpFrontNamingFileAndErrno) {
  Access a = probe_access("/sys/kernel/debug/sched/features");
  if (a.writable) GTEST_SKIP() << "the features file is writable here; nothing to refuse";
  schedrig::testing::TempDir state;
  KnobController k(procfs::Root::live(), state.path());
  auto plan = parse_plan_yaml(
      "duration_s: 1\ncases: [{workload: fork}]\nvariants: [{name: base}, {name: nr, features: "
      "[NO_NI_RANDOM]}]\n",
      "t.yaml");
  try {
    runner::check_variants(plan, k);
    FAIL() << "expected PlanRejected";
  } catch (const runner::PlanRejected& e) {
    std::string msg = e.what();
    EXPECT_EQ(e.code(), schedrig::v1::ERROR_FACILITY_UNAVAILABLE);
    EXPECT_NE(msg.find("/sys/kernel/debug/sched/features"), std::string::npos) << msg;
    EXPECT_TRUE(msg.find("EPERM") != std::string::npos || msg.find("ENOENT") != std::string::npos ||
                msg.find("EACCES") != std::string::npos)
        << msg;
  }
}

}  // namespace
}  // namespace schedrig::knobs
