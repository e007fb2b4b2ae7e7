#include "host/nightly/night_schedule.h"

#include <gtest/gtest.h>

#include "common/cli_error.h"
#include "host/nightly/night_agents.h"
#include "host/nightly/night_plan_text.h"

namespace schedrig::nightly {
namespace {

std::string order(const std::vector<NightSlot>& slots) {
  std::string out;
  for (const NightSlot& s : slots) out += s.kernel + std::to_string(s.boot) + " ";
  return out;
}

TEST(NightSchedule, BootsInterleaveKernelsRoundByRound) {
  LabFile lab;
  lab.kernels = {"A", "B"};
  lab.boots_per_kernel = 3;
  const std::vector<NightSlot> slots = night_slots(lab);
  EXPECT_EQ(order(slots), "A1 B1 A2 B2 A3 B3 ");
  EXPECT_EQ(slots.back().index, 6u);
  EXPECT_TRUE(slots.front().reboot);
  lab.kernels = {"A", "B", "C"};
  lab.boots_per_kernel = 2;
  EXPECT_EQ(order(night_slots(lab)), "A1 B1 C1 A2 B2 C2 ");
  lab.kernels.clear();  // current: no reboot
  const std::vector<NightSlot> current = night_slots(lab);
  EXPECT_EQ(order(current), "current1 current2 ");
  EXPECT_FALSE(current[0].reboot);
}

nlohmann::json agents_json() {
  return nlohmann::json::parse(R"({"agents":[
    {"agent_id":"altra1","connected":true,"arch":"aarch64","hostname":"altra1",
     "kernel_release":"6.12-a","kernels":[{"name":"A","release":"6.12-a","hook":"kexec"},
                                          {"name":"B","release":"6.12-b","hook":"kexec"}]},
    {"agent_id":"epyc1","connected":true,"arch":"x86_64","hostname":"epyc1",
     "kernel_release":"6.12-a","kernels":[{"name":"A","release":"6.12-a","hook":"grub-reboot"}]},
    {"agent_id":"gone","connected":false,"arch":"aarch64","kernels":[]}]})");
}

TEST(NightAgents, SelectorsPickConnectedAgentsThatListEveryKernel) {
  LabFile lab;
  lab.path = "lab.yaml";
  lab.kernels = {"A", "B"};
  lab.agents = {{"", {{"arch", "aarch64"}}, 1}};
  const std::vector<NightAgent> a = resolve_night_agents(lab, agents_json());
  ASSERT_EQ(a.size(), 1u);  // "gone" is not connected
  EXPECT_EQ(a[0].agent_id, "altra1");
  EXPECT_EQ(a[0].kernels.at("B").release, "6.12-b");

  lab.agents = {{"epyc1", {}, 3}};
  try {
    resolve_night_agents(lab, agents_json());
    FAIL();
  } catch (const CliError& e) {
    EXPECT_STREQ(e.what(),
                 "lab.yaml:3: agent epyc1 does not list kernel 'B' (its config lists: A)");
  }
  lab.agents = {{"gone", {}, 2}};
  try {
    resolve_night_agents(lab, agents_json());
    FAIL();
  } catch (const CliError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
  }
  lab.agents = {{"", {{"hostname", "nobody"}}, 4}};
  EXPECT_THROW(resolve_night_agents(lab, agents_json()), CliError);
}

TEST(NightSchedule, TheDryRunSaysWhatEachSlotBootsAndRuns) {
  LabFile lab;
  lab.path = "lab.yaml";
  lab.kernels = {"A", "B"};
  lab.baseline_kernel = "A";
  lab.boots_per_kernel = 2;
  lab.plans = {{"/x/fork.yaml", "fork.yaml", ""}};
  lab.agents = {{"altra1", {}, 1}};
  const auto agents = resolve_night_agents(lab, agents_json());
  const std::string text = schedule_text(lab, agents);
  EXPECT_NE(text.find("night of lab.yaml: kernels A, B, baseline A, 2 boots each; each boot runs "
                      "fork.yaml, selftest"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  3     A       2/2    kexec -> 6.12-a"), std::string::npos) << text;
  const nlohmann::json j = schedule_json(lab, agents);
  ASSERT_EQ(j["agents"][0]["slots"].size(), 4u);
  EXPECT_EQ(j["agents"][0]["slots"][1]["kernel"], "B");
  EXPECT_EQ(j["agents"][0]["slots"][1]["release"], "6.12-b");
}

}  // namespace
}  // namespace schedrig::nightly
