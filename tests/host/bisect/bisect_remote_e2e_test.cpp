// `schedrig bisect-knobs --server URL --agent ID` end to end
// (docs/bisect-knobs.md "Through a server"): the control plane's fixture
// (tests/e2e/control_plane_fixture.h: serve over TLS, tokens, a real
// `connect`), with the simulated kernel's host and agent builds
// (tests/host/bisect/sim_kernel.h) and the FUSE sched features file under
// the agent's fake root.
//  - The box's knobs come from the agent's Hello; its config's bisect_deny
//    keeps a feature out; every probe is a run on the server; the search
//    finds NI_RANDOM and the pair, and the file is left as found.
//  - A feature flipped behind the agent's back after its Hello: the first
//    probe sees it and the search stops, exit 1, naming it.
//  - A plain fake root and the real agent: the writable sysctl is searched
//    on a fork case and the report says the box was left as found.
#include <fstream>

#include "tests/agent/knobs/fake_root.h"
#include "tests/e2e/control_plane_fixture.h"
#include "tests/host/bisect/sim_kernel.h"

namespace schedrig::e2e {
namespace {

std::string tests_bin(const std::string& name) {
  return std::string(SCHEDRIG_BIN_DIR) + "/../tests/" + name;
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// `schedrig bisect-knobs ARGS` as alice, stderr to `err` apart from stdout.
CommandResult bisect_knobs(const std::string& host_bin, const std::string& args,
                           const std::string& err) {
  return testing::run_command(
      fmt::format("(timeout --foreground 240 {} bisect-knobs {} 2>{})", host_bin, args, err));
}

class BisectRemoteE2E : public ControlPlaneE2E {
 protected:
  void SetUp() override {
    if (!root_.mount_features(testing::sim_kernel_features()))
      GTEST_SKIP() << "FUSE is not usable here (/dev/fuse)";
    host_bin_ = tests_bin("schedrig-simkernel");
    agent_cmd_ = {"/usr/bin/env", "SCHEDRIG_SIMKERNEL_FEATURES=" + features(),
                  tests_bin("schedrig-agent-simkernel")};
    ControlPlaneE2E::SetUp();
    plan_ = write_plan("sim.yaml",
                       "name: sim\nduration_s: 0.05\nsample_hz: 0\n"
                       "quiet: {timeout_s: 0, disturbance: false}\n"
                       "cases: [{workload: simkernel}]\n");
  }
  std::string features() const { return root_.path("sys/kernel/debug/sched/features"); }
  CommandResult bisect(const std::string& args, const std::string& agent = "box1") {
    return bisect_knobs(host_bin_,
                        server_flags() + " --agent " + agent + " --plan " + plan_ + " " + args,
                        dir_.file("stderr"));
  }
  std::string stderr_text() const { return read_file(dir_.file("stderr")); }

  knobs::testing::FakeRoot root_;
  std::string plan_;
};

TEST_F(BisectRemoteE2E, FindsTheFeatureAndThePairThroughTheServerAndHonoursTheAgentsDenylist) {
  const std::string config = write_plan("agent.yaml", "bisect_deny: [NO_F05]\n");
  start_agent("box1", config, root_.dir());
  const std::string as_found = first_line(features());
  const auto r = bisect("--candidates NI_RANDOM,ALPHA_PAIR,ZULU_PAIR,F03,F04,F05 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output << stderr_text() << agents_["box1"]->log();
  const json j = json::parse(r.output);
  ASSERT_EQ(j["findings"].size(), 2u) << j.dump(2);
  EXPECT_EQ(j["findings"][0]["units"], json({"NO_NI_RANDOM"}));
  EXPECT_NEAR(j["findings"][0]["look"]["change_pct"].get<double>(), 100, 5);
  EXPECT_EQ(j["findings"][1]["units"], json({"NO_ALPHA_PAIR", "NO_ZULU_PAIR"}));
  EXPECT_NEAR(j["findings"][1]["look"]["change_pct"].get<double>(), 30, 4);
  EXPECT_EQ(j["no_effect"], json({"NO_F03", "NO_F04"}));
  bool denied = false;
  for (const auto& s : j["skipped"])
    denied = denied || (s["name"] == "F05" &&
                        s["reason"] == "denylisted by the agent's config (bisect_deny)");
  EXPECT_TRUE(denied) << j["skipped"].dump();
  EXPECT_TRUE(j["box_as_found"].get<bool>());
  EXPECT_EQ(first_line(features()), as_found);
  // Every probe is a run the server keeps, labelled as a probe.
  const long long probes = static_cast<long long>(j["probes"].size());
  EXPECT_GE(probes, 5);
  EXPECT_EQ(count("SELECT count(*) FROM runs WHERE labels LIKE '%\"bisect-knobs\":\"probe\"%' "
                  "AND status = 'ok'"),
            probes);
}

TEST_F(BisectRemoteE2E, AFeatureFlippedAfterTheAgentsHelloStopsTheSearch) {
  start_agent("box1", "", root_.dir());
  std::ofstream(features()) << "NO_F04";  // the box changes; the Hello still says F04 on
  const auto r = bisect("--candidates F04");
  EXPECT_EQ(r.exit_code, 1) << r.output << stderr_text();
  EXPECT_NE(stderr_text().find("the box was not as read when it ran (F04: on -> off)"),
            std::string::npos)
      << stderr_text();
  std::ofstream(features()) << "F04";
  // A target run the server does not have; an agent it does not have, and
  // one not connected.
  auto bad = bisect("--target abc123");
  EXPECT_EQ(bad.exit_code, 2) << bad.output << stderr_text();
  EXPECT_NE(stderr_text().find("--target abc123: no run matches 'abc123'"), std::string::npos)
      << stderr_text();
  auto none = bisect("", "nosuch");
  EXPECT_EQ(none.exit_code, 2) << none.output << stderr_text();
  EXPECT_NE(stderr_text().find("has no such agent (it has: box1)"), std::string::npos)
      << stderr_text();
  agents_.clear();
  EXPECT_TRUE(eventually([&] { return !agent_json("box1").value("connected", true); }));
  none = bisect("");
  EXPECT_EQ(none.exit_code, 3) << none.output << stderr_text();
  EXPECT_NE(stderr_text().find("box1: not connected"), std::string::npos) << stderr_text();
}

// The real agent on a plain fake root: only the autogroup sysctl is
// there; a fork case through the server.
class BisectRemoteRealAgentE2E : public ControlPlaneE2E {
 protected:
  // A search over autogroup on box1 whose probes take 2 s an iteration.
  ChildProcess long_search() {
    const std::string plan = write_plan(
        "long.yaml",
        "name: long\nduration_s: 2\nsample_hz: 0\nquiet: {timeout_s: 0, disturbance: false}\n"
        "cases: [{name: forks, workload: fork, params: {workers: 1}}]\n");
    return ChildProcess(
        {host_bin_, "bisect-knobs", "--server", fmt::format("https://127.0.0.1:{}", port_), "--ca",
         pki_.ca_cert, "--token-file", token_file("alice"), "--agent", "box1", "--plan", plan,
         "--candidates", "kernel.sched_autogroup_enabled"},
        dir_.file("search.log"));
  }
};

// Ctrl-C while a probe runs: the probe is aborted on the server (its knob
// back as found), then exit 130.
TEST_F(BisectRemoteRealAgentE2E, CtrlCAbortsTheProbeOnTheServer) {
  start_agent("box1");
  ChildProcess search = long_search();
  ASSERT_TRUE(eventually([&] { return knob("box1") == "0"; }, 30s)) << search.log();
  ::kill(search.pid(), SIGINT);
  EXPECT_EQ(search.wait_for_exit(20s), 130) << search.log();
  EXPECT_NE(search.log().find("aborted on the server"), std::string::npos) << search.log();
  EXPECT_TRUE(eventually([&] { return knob("box1") == "1"; }, 20s));
  EXPECT_EQ(count("SELECT count(*) FROM runs WHERE status = 'aborted'"), 1);
}

// A probe aborted by someone else (`schedrig abort`): no look is taken
// from what it ran; the search stops with exit 1, the box as found.
TEST_F(BisectRemoteRealAgentE2E, AProbeAbortedBySomeoneElseStopsTheSearch) {
  start_agent("box1");
  ChildProcess search = long_search();
  ASSERT_TRUE(eventually([&] { return knob("box1") == "0"; }, 30s)) << search.log();
  const std::string run_id = agent_json("box1").value("run_id", "");
  ASSERT_FALSE(run_id.empty());
  EXPECT_EQ(api(http::verb::post, "/api/v1/runs/" + run_id + "/abort", "alice", "{}").status, 200u);
  EXPECT_EQ(search.wait_for_exit(30s), 1) << search.log();
  EXPECT_NE(search.log().find("probe run " + run_id.substr(0, 8) + " ended aborted: "),
            std::string::npos)
      << search.log();
  EXPECT_NE(search.log().find("; the search stops"), std::string::npos) << search.log();
  EXPECT_NE(search.log().find("box left as found"), std::string::npos) << search.log();
  EXPECT_EQ(knob("box1"), "1");
}

TEST_F(BisectRemoteRealAgentE2E, ASysctlSearchOnAForkCaseLeavesTheBoxAsFound) {
  start_agent("box1");
  const std::string plan = write_plan(
      "fork.yaml",
      "name: fork\nduration_s: 0.1\nsample_hz: 0\nquiet: {timeout_s: 0, disturbance: false}\n"
      "cases: [{name: forks, workload: fork, params: {workers: 1}}]\n");
  const auto r = bisect_knobs(
      host_bin_,
      server_flags() + " --agent box1 --plan " + plan + " --candidates sysctls --max-iterations 6",
      dir_.file("stderr"));
  ASSERT_EQ(r.exit_code, 0) << r.output << read_file(dir_.file("stderr"));
  EXPECT_NE(r.output.find("kernel.sched_autogroup_enabled=0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("skipped kernel.numa_balancing: absent here: No such file or directory"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("box left as found"), std::string::npos) << r.output;
  EXPECT_EQ(knob("box1"), "1");
}

}  // namespace
}  // namespace schedrig::e2e
