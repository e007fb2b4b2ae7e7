// make_candidates (host/bisect/candidates.h): what bisect-knobs may flip on
// a box, and what it skips and why.
#include "host/bisect/candidates.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace schedrig::bisect {
namespace {

BoxKnobs box() {
  BoxKnobs b;
  b.features = {{"NI_RANDOM", true},     {"PLACE_LAG", true},  {"LATENCY_WARN", false},
                {"DELAY_DEQUEUE", true}, {"DELAY_ZERO", true}, {"WARN_DOUBLE_CLOCK", false}};
  b.features_writable = true;
  b.knobs["kernel.sched_autogroup_enabled"] = {"1", true, ""};
  b.knobs["kernel.numa_balancing"] = {"0", true, ""};
  b.knobs["kernel.sched_rt_runtime_us"] = {"950000", true, ""};
  b.knobs["kernel.sched_util_clamp_min"] = {"0", true, ""};
  b.knobs["kernel.sched_util_clamp_max"] = {"512", true, ""};
  b.knobs["sched/base_slice_ns"] = {std::nullopt, false, "EPERM (debugfs locked down)"};
  return b;
}

std::vector<std::string> names(const CandidateSet& s) {
  std::vector<std::string> out;
  for (const auto& c : s.candidates) out.push_back(c.unit.name);
  return out;
}

std::string skipped(const CandidateSet& s, const std::string& name) {
  for (const auto& k : s.skipped)
    if (k.name == name) return k.reason;
  return "(not skipped)";
}

TEST(Candidates, EveryFlipTheBoxAllowsAndEverySkipWithItsReason) {
  const CandidateSet s = make_candidates(box(), {});
  EXPECT_EQ(names(s), (std::vector<std::string>{
                          "NO_DELAY_DEQUEUE+NO_DELAY_ZERO",  // one unit, from the bundle table
                          "NO_NI_RANDOM", "NO_PLACE_LAG", "kernel.numa_balancing=1",
                          "kernel.numa_balancing=2", "kernel.numa_balancing=3",
                          "kernel.sched_autogroup_enabled=0", "kernel.sched_util_clamp_max=1024"}))
      << "as found values are never candidates";
  EXPECT_EQ(skipped(s, "kernel.sched_util_clamp_min=1024"),
            "kernel.sched_util_clamp_min=1024 would be above kernel.sched_util_clamp_max (512)");
  EXPECT_EQ(skipped(s, "LATENCY_WARN"),
            "denylisted: emits a kernel WARN (fatal under panic_on_warn)");
  EXPECT_EQ(skipped(s, "WARN_DOUBLE_CLOCK"),
            "denylisted: emits a kernel WARN (fatal under panic_on_warn)");
  EXPECT_EQ(skipped(s, "kernel.sched_rt_runtime_us"),
            "denylisted: RT throttling: a runaway RT task could starve the box");
  EXPECT_EQ(skipped(s, "sched/base_slice_ns"), "not writable here: EPERM (debugfs locked down)");
  BoxKnobs absent = box();
  absent.knobs["kernel.sched_energy_aware"] = {std::nullopt, false,
                                               "No such file or directory (ENOENT)"};
  EXPECT_EQ(skipped(make_candidates(absent, {{"kernel.sched_energy_aware"}, {}}),
                    "kernel.sched_energy_aware"),
            "absent here: No such file or directory (ENOENT)");
  const auto& bundle = s.candidates[0];
  EXPECT_EQ(bundle.features, (std::vector<std::string>{"NO_DELAY_DEQUEUE", "NO_DELAY_ZERO"}));
  EXPECT_EQ(s.candidates[3].sysctl,
            (std::map<std::string, std::string>{{"kernel.numa_balancing", "1"}}));
}

TEST(Candidates, APairConstraintSkipsTheValueThatWouldBreakIt) {
  BoxKnobs b = box();
  b.knobs["kernel.sched_util_clamp_min"].value = "600";  // above max 512 would be refused
  b.knobs["kernel.sched_util_clamp_max"].value = "1024";
  const CandidateSet s = make_candidates(b, {{"kernel.sched_util_clamp_max"}, {}});
  EXPECT_EQ(names(s), std::vector<std::string>{});
  EXPECT_EQ(skipped(s, "kernel.sched_util_clamp_max=512"),
            "kernel.sched_util_clamp_max=512 would be below kernel.sched_util_clamp_min (600)");
}

TEST(Candidates, KindsNamesAndTheAgentsDenylistNarrowIt) {
  EXPECT_EQ(names(make_candidates(box(), {{"NI_RANDOM", "kernel.sched_autogroup_enabled"}, {}})),
            (std::vector<std::string>{"NO_NI_RANDOM", "kernel.sched_autogroup_enabled=0"}));
  const CandidateSet sysctls = make_candidates(box(), {{"sysctls"}, {"kernel.numa_balancing"}});
  EXPECT_EQ(names(sysctls), (std::vector<std::string>{"kernel.sched_autogroup_enabled=0",
                                                      "kernel.sched_util_clamp_max=1024"}));
  EXPECT_EQ(skipped(sysctls, "kernel.numa_balancing"), "denylisted (--deny)");
  try {
    make_candidates(box(), {{"NI_RANDOMM"}, {}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(
        e.what(),
        "--candidates NI_RANDOMM: not features, sysctls, tunables, all, or a knob this box has");
  }
}

TEST(Candidates, ADenylistedFeatureIsNamedWithOrWithoutNoAndKeepsItsBundleOut) {
  const CandidateSet s =
      make_candidates(box(), {{"features"}, {"NO_NI_RANDOM"}, {"DELAY_ZERO", "NI_RANDOMM"}});
  EXPECT_EQ(names(s), (std::vector<std::string>{"NO_PLACE_LAG"}));
  EXPECT_EQ(skipped(s, "NI_RANDOM"), "denylisted (--deny)");
  EXPECT_EQ(skipped(s, "DELAY_DEQUEUE+DELAY_ZERO"),
            "denylisted by the agent's config (bisect_deny)");
  // A deny name that names nothing here (a typo) is said, not silently kept.
  EXPECT_EQ(s.notes, std::vector<std::string>{"the agent's bisect_deny NI_RANDOMM: no feature or "
                                              "knob of this box has that name"});
  const CandidateSet t = make_candidates(box(), {{"features"}, {"kernel.sched_autogroup_enable"}});
  EXPECT_EQ(t.notes, std::vector<std::string>{"--deny kernel.sched_autogroup_enable: no feature "
                                              "or knob of this box has that name"});
}

// A value as found that is not a plain integer (01, ' 1', junk) could not
// be restored by the agent: the knob is skipped, never probed.
TEST(Candidates, AKnobWhoseValueAsFoundIsNotAPlainIntegerIsSkipped) {
  for (const std::string v :
       {"01", " 1", "1 ", "+1", "-0", "0x1", "\x1b]0;x\a", "", "99999999999999999999"}) {
    BoxKnobs b = box();
    b.knobs["kernel.sched_autogroup_enabled"].value = v;
    const CandidateSet s = make_candidates(b, {{"kernel.sched_autogroup_enabled"}, {}});
    EXPECT_TRUE(names(s).empty()) << v;
    EXPECT_EQ(skipped(s, "kernel.sched_autogroup_enabled"),
              "its value as found '" + v + "' is not a plain integer")
        << v;
  }
  BoxKnobs b = box();
  b.knobs["kernel.sched_autogroup_enabled"].value = "-1";
  EXPECT_EQ(names(make_candidates(b, {{"kernel.sched_autogroup_enabled"}, {}})),
            (std::vector<std::string>{"kernel.sched_autogroup_enabled=0",
                                      "kernel.sched_autogroup_enabled=1"}));
}

// A writable knob whose value was not reported (over Hello's bound) could
// not be checked as found afterwards: it is skipped, not flipped.
TEST(Candidates, AKnobWithNoValueAsFoundIsSkipped) {
  BoxKnobs b = box();
  b.knobs["kernel.sched_autogroup_enabled"].value.reset();
  const CandidateSet s = make_candidates(b, {{"kernel.sched_autogroup_enabled"}, {}});
  EXPECT_TRUE(s.candidates.empty());
  EXPECT_EQ(skipped(s, "kernel.sched_autogroup_enabled"), "its value as found was not reported");
}

TEST(Candidates, AFeaturesFileThatCannotBeWrittenIsOneSkip) {
  BoxKnobs b = box();
  b.features_writable = false;
  b.features_why_not = "/sys/kernel/debug/sched/features: ENOENT (debugfs not mounted)";
  const CandidateSet s = make_candidates(b, {{"features"}, {}});
  EXPECT_TRUE(s.candidates.empty());
  EXPECT_EQ(skipped(s, "sched features"),
            "not writable here: /sys/kernel/debug/sched/features: ENOENT (debugfs not mounted)");
}

TEST(Candidates, EveryTableValueIsInsideItsAllowedRangeAndNoDenylistedKnobHasValues) {
  for (const char* knob : {"kernel.sched_rt_runtime_us", "kernel.sched_rt_period_us",
                           "kernel.sched_schedstats", "sched/verbose"}) {
    EXPECT_TRUE(candidate_values(knob).empty()) << knob;
    EXPECT_FALSE(default_denylist_reason(knob).empty()) << knob;
  }
  EXPECT_EQ(candidate_values("kernel.numa_balancing"),
            (std::vector<std::string>{"0", "1", "2", "3"}));
}

}  // namespace
}  // namespace schedrig::bisect
