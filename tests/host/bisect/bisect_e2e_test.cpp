// `schedrig bisect-knobs` end to end, on this machine like `lab`:
//  - the simulated kernel (tests/host/bisect/sim_kernel.h) under a fake
//    root whose sched features file is the FUSE fake with the kernel's
//    semantics: 40 features, NI_RANDOM halves the rate, ALPHA_PAIR and ZULU_PAIR
//    matter only together (first and last by name: the first split parts
//    them, so only the residual pass can find them). The search names exactly those, leaves the
//    file as found, and spends at most the documented probes.
//  - a real search over a writable sysctl on the kv case (this box lets
//    kernel.sched_autogroup_enabled be written): it completes, reports, and
//    leaves the sysctl as found.
//  - a box the agent cannot read again at the end: "as found: unknown",
//    exit 3.
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/agent/knobs/fake_root.h"
#include "tests/host/bisect/sim_kernel.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::run_command;
using testing::TempDir;

std::string tests_bin(const std::string& name) {
  return std::string(SCHEDRIG_BIN_DIR) + "/../tests/" + name;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(BisectKnobsE2E, TheSimulatedKernelsFeatureAndPairAreFoundAndNothingElse) {
  knobs::testing::FakeRoot root;
  if (!root.mount_features(testing::sim_kernel_features()))
    GTEST_SKIP() << "FUSE is not usable here (/dev/fuse)";
  const std::string features = root.path("sys/kernel/debug/sched/features");
  const std::string as_found = read_line(features);
  TempDir dir;
  const std::string plan = dir.file("sim.yaml");
  std::ofstream(plan) << "name: sim\nduration_s: 0.05\nquiet: {hold_s: 0, timeout_s: 1}\n"
                         "cases: [{workload: simkernel}]\n";
  const auto r = run_command(
      "(SCHEDRIG_SIMKERNEL_FEATURES=" + features + " " + tests_bin("schedrig-simkernel") +
      " bisect-knobs --plan " + plan + " --agent " + tests_bin("schedrig-agent-simkernel") +
      " --root " + root.dir() + " --state-dir " + root.state_dir() + " --db " + dir.file("db") +
      " --candidates features --json 2>" + dir.file("stderr") + ")");
  ASSERT_EQ(r.exit_code, 0) << r.output << read_file(dir.file("stderr"));
  const nlohmann::json j = nlohmann::json::parse(r.output);
  ASSERT_EQ(j["findings"].size(), 2u) << j.dump(2);
  EXPECT_EQ(j["findings"][0]["units"], nlohmann::json({"NO_NI_RANDOM"}));
  EXPECT_NEAR(j["findings"][0]["look"]["change_pct"].get<double>(), 100, 5);
  EXPECT_EQ(j["findings"][1]["units"], nlohmann::json({"NO_ALPHA_PAIR", "NO_ZULU_PAIR"}));
  EXPECT_TRUE(j["findings"][1]["interaction"].get<bool>());
  EXPECT_NEAR(j["findings"][1]["look"]["change_pct"].get<double>(), 30, 4);
  EXPECT_EQ(j["no_effect"].size(), 37u);
  EXPECT_TRUE(j["box_as_found"].get<bool>());
  EXPECT_EQ(read_line(features), as_found);
  // group_search.h's bound for 40 candidates in one group: about 40 probes
  // (1 + 2 log2 40 for NI_RANDOM, 2 log2 40 + 3 for the pair, residual
  // passes and confirmations); one at a time would take 40 and miss the pair.
  EXPECT_LE(j["probes"].size(), 44u) << j["probes"].size();
}

TEST(BisectKnobsE2E, ARealSearchOverAWritableSysctlCompletesAndLeavesItAsFound) {
  const std::string autogroup = "/proc/sys/kernel/sched_autogroup_enabled";
  if (::access(autogroup.c_str(), W_OK) != 0) GTEST_SKIP() << autogroup << " is not writable here";
  const std::string before = read_line(autogroup);
  TempDir dir;
  const std::string plan = dir.file("kv.yaml");
  std::ofstream(plan) << "name: kv\nduration_s: 0.2\nquiet: {hold_s: 0.1, timeout_s: 1}\n"
                         "cases: [{workload: kv, params: {clients: 4, executors: 2}}]\n";
  const auto r = run_command("(" + testing::bin("schedrig") + " bisect-knobs --plan " + plan +
                             " --candidates kernel.sched_autogroup_enabled --max-iterations 6 "
                             "--db " +
                             dir.file("db") + " 2>" + dir.file("stderr") + ")");
  ASSERT_EQ(r.exit_code, 0) << r.output << read_file(dir.file("stderr"));
  EXPECT_NE(r.output.find("bisect-knobs: case kv:clients=4,executors=2, ops_per_s"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("kernel.sched_autogroup_enabled="), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("probes: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("box left as found"), std::string::npos) << r.output;
  EXPECT_NE(read_file(dir.file("stderr")).find("probe 1: kernel.sched_autogroup_enabled="),
            std::string::npos);
  EXPECT_EQ(read_line(autogroup), before);
}

// The box cannot be read again at the end (here the agent's second `knobs
// list` fails): the report says the box as found is unknown, not that it
// changed, and the exit is 3 (the agent unreachable), not 0.
TEST(BisectKnobsE2E, ABoxThatCannotBeReadAgainIsUnknownWithExit3) {
  knobs::testing::FakeRoot root;
  TempDir dir;
  const std::string agent = dir.file("agent.sh");
  std::ofstream(agent) << "#!/bin/sh\ncase \" $* \" in *\" knobs list \"*)\n"
                       << "  if [ -e " << dir.file("listed")
                       << " ]; then echo gone >&2; exit 1; fi\n"
                       << "  : > " << dir.file("listed") << ";;\nesac\n"
                       << "exec " << testing::bin("schedrig-agent") << " \"$@\"\n";
  ASSERT_EQ(::chmod(agent.c_str(), 0755), 0);
  const std::string plan = dir.file("fork.yaml");
  std::ofstream(plan) << "name: f\nduration_s: 0.05\nquiet: {hold_s: 0, timeout_s: 1}\n"
                         "cases: [{workload: fork}]\n";
  const auto r =
      run_command("(" + testing::bin("schedrig") + " bisect-knobs --plan " + plan + " --agent " +
                  agent + " --root " + root.dir() + " --state-dir " + root.state_dir() +
                  " --candidates kernel.sched_autogroup_enabled --max-iterations 5 "
                  "--db " +
                  dir.file("db") + " 2>" + dir.file("stderr") + ")");
  EXPECT_EQ(r.exit_code, 3) << r.output << read_file(dir.file("stderr"));
  EXPECT_NE(r.output.find("box as found: unknown (the knobs could not be read again: " + agent +
                          " knobs list failed"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("NOT as found"), std::string::npos) << r.output;
  EXPECT_EQ(root.get("proc/sys/kernel/sched_autogroup_enabled"), "1");
}

}  // namespace
}  // namespace schedrig
