#include "agent/knobs/knob.h"

#include <gtest/gtest.h>

#include "agent/knobs/allowlist.h"

namespace schedrig::knobs {
namespace {

std::string error_of(const std::string& text, bool value_required = true) {
  try {
    parse_knob(text, value_required);
  } catch (const KnobError& e) {
    return e.what();
  }
  return "";
}

TEST(ParseKnob, FeatureTokensAsTheKernelSpellsThem) {
  KnobSetting off = parse_knob("NO_NI_RANDOM", true);
  EXPECT_EQ(off.kind, KnobKind::kFeature);
  EXPECT_EQ(off.name, "NI_RANDOM");
  EXPECT_EQ(off.value, "off");
  EXPECT_EQ(knob_text(off), "NO_NI_RANDOM");
  KnobSetting on = parse_knob("SIS_UTIL", true);
  EXPECT_EQ(on.value, "on");
  EXPECT_EQ(knob_text(on), "SIS_UTIL");
  EXPECT_EQ(parse_knob("NI_RANDOM", false).value, "");  // get: no value implied
}

TEST(ParseKnob, SysctlsAndTunablesFromTheAllowlist) {
  KnobSetting s = parse_knob("kernel.numa_balancing=0", true);
  EXPECT_EQ(s.kind, KnobKind::kSysctl);
  EXPECT_EQ(s.name, "kernel.numa_balancing");
  EXPECT_EQ(s.value, "0");
  KnobSetting t = parse_knob("sched/migration_cost_ns=500000", true);
  EXPECT_EQ(t.kind, KnobKind::kDebugfs);
  EXPECT_EQ(knob_text(t), "sched/migration_cost_ns=500000");
  EXPECT_EQ(parse_knob("kernel.sched_autogroup_enabled", false).value, "");
}

TEST(ParseKnob, ValuesAreTypeChecked) {
  std::string msg = error_of("kernel.numa_balancing=7");
  EXPECT_NE(msg.find("'7'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[0, 3]"), std::string::npos) << msg;
  EXPECT_NE(error_of("sched/migration_cost_ns=fast").find("'fast'"), std::string::npos);
  EXPECT_NE(error_of("kernel.sched_autogroup_enabled=").find("''"), std::string::npos);
  EXPECT_NE(error_of("kernel.numa_balancing").find("a value is needed"), std::string::npos);
}

TEST(ParseKnob, NamesOffTheAllowlistAreRefusedWithSuggestions) {
  std::string msg = error_of("kernel.numa_balancin=1");
  EXPECT_NE(msg.find("not on schedrig's allowlist"), std::string::npos) << msg;
  EXPECT_NE(msg.find("kernel.numa_balancing"), std::string::npos) << msg;
  EXPECT_NE(error_of("kernel.core_pattern=|/bin/sh").find("allowlist"), std::string::npos);
  EXPECT_NE(error_of("sched/../../../etc/shadow=1").find("allowlist"), std::string::npos);
  EXPECT_NE(error_of("vm.drop_caches=3").find("allowlist"), std::string::npos);
}

TEST(ParseKnob, MalformedFeatureTokensAreRefused) {
  EXPECT_NE(error_of("ni_random").find("none of"), std::string::npos);
  EXPECT_NE(error_of("NI_RANDOM=1").find("no '='"), std::string::npos);
  EXPECT_NE(error_of("").find("none of"), std::string::npos);
}

TEST(CloseMatches, ClosestFirst) {
  auto m = close_matches("NI_RANDON", {"NI_RATE", "NI_RANDOM", "SIS_UTIL"});
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m.front(), "NI_RANDOM");
  EXPECT_TRUE(close_matches("ZZZZZZZZ", {"NI_RANDOM"}).empty());
}

}  // namespace
}  // namespace schedrig::knobs
