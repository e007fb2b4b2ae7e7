#include "agent/workloads/fork_storm.h"

#include <numeric>
#include <thread>

#include <gtest/gtest.h>

#include "tests/agent/workloads/test_support.h"

namespace schedrig::workloads {
namespace {

using namespace std::chrono_literals;
using test::allowed_cpus;
using test::no_children_left;

std::uint64_t sum(const std::map<int, std::uint64_t>& m) {
  return std::accumulate(m.begin(), m.end(), std::uint64_t{0},
                         [](std::uint64_t a, const auto& kv) { return a + kv.second; });
}

TEST(ForkStorm, ShortRunForksReapsEveryChildAndRecordsEachOne) {
  ForkStormParams p;
  p.workers = 2;
  p.fork_max = 4;
  p.cpus = allowed_cpus();
  p.duration = 300ms;
  test::WindowRecorder window;
  p.observer = window.observer();
  ForkStormResult r = run_fork_storm(p);
  // The sampler is told the two creator processes, alive, before the
  // window, and a progress count that grows while it is open.
  EXPECT_EQ(window.opened, 1);
  EXPECT_EQ(window.closed, 1);
  ASSERT_EQ(window.tasks.size(), 2u);
  for (const auto& t : window.tasks) {
    EXPECT_EQ(t.pid, t.tid);
    EXPECT_NE(t.pid, ::getpid());
  }
  EXPECT_TRUE(window.all_alive);
  EXPECT_EQ(window.ops_at_open, 0u);
  EXPECT_GT(window.ops_after_100ms, 0u);
  EXPECT_LE(window.ops_after_100ms, r.bogo_ops);
  EXPECT_GT(r.bogo_ops, 0u);
  EXPECT_GE(r.duration_s, 0.3);
  EXPECT_LT(r.duration_s, 5.0);
  EXPECT_NEAR(r.bogo_ops_per_s, static_cast<double>(r.bogo_ops) / r.duration_s, 1e-6);
  EXPECT_EQ(r.fork_failures, 0u);
  // Every reaped child recorded its first PU, and only children that ran did.
  ASSERT_TRUE(r.recorded);
  EXPECT_EQ(r.children_recorded, r.bogo_ops);
  EXPECT_EQ(sum(r.children_per_pu), r.bogo_ops);
  for (const auto& [pu, n] : r.children_per_pu) {
    EXPECT_NE(std::find(p.cpus.begin(), p.cpus.end(), pu), p.cpus.end()) << pu;
  }
  EXPECT_GE(r.same_pu_rate, 0.0);
  EXPECT_LE(r.same_pu_rate, 1.0);
  EXPECT_LE(r.collision_rate, 1.0);
  EXPECT_TRUE(r.children_per_node.empty());  // no map given
  EXPECT_TRUE(no_children_left());
}

// One allowed PU: every child starts on its creator's PU and no other PU can
// be idle, so the collision rate is 0 by definition.
TEST(ForkStorm, OneAllowedPuPutsEveryChildOnItsCreatorsPu) {
  ForkStormParams p;
  p.workers = 2;
  p.fork_max = 3;
  p.cpus = {allowed_cpus().front()};
  p.duration = 200ms;
  ForkStormResult r = run_fork_storm(p);
  ASSERT_GT(r.bogo_ops, 0u);
  EXPECT_EQ(r.children_recorded, r.bogo_ops);
  EXPECT_EQ(r.same_pu, r.bogo_ops);
  EXPECT_DOUBLE_EQ(r.same_pu_rate, 1.0);
  EXPECT_EQ(r.collisions, 0u);
  EXPECT_DOUBLE_EQ(r.collision_rate, 0.0);
  ASSERT_EQ(r.children_per_pu.size(), 1u);
  EXPECT_EQ(r.children_per_pu.begin()->first, p.cpus[0]);
  EXPECT_TRUE(no_children_left());
}

// per-cpu: each creator is pinned to one PU and its children inherit it.
TEST(ForkStorm, PerCpuPinningIsRecordedAsAsked) {
  ForkStormParams p;
  p.cpus = allowed_cpus();
  p.workers = static_cast<unsigned>(p.cpus.size());
  p.pin = PinMode::kPerCpu;
  p.duration = 200ms;
  ForkStormResult r = run_fork_storm(p);
  ASSERT_GT(r.bogo_ops, 0u);
  EXPECT_DOUBLE_EQ(r.same_pu_rate, 1.0);
  EXPECT_EQ(r.collisions, 0u);
  // Every PU had a creator, so every PU saw children.
  EXPECT_EQ(r.children_per_pu.size(), p.cpus.size());
  EXPECT_TRUE(no_children_left());
}

TEST(ForkStorm, TopologyMapsGiveChildrenPerNodeAndLlc) {
  ForkStormParams p;
  p.cpus = allowed_cpus();
  p.workers = 2;
  p.duration = 200ms;
  const int top = p.cpus.back();
  p.pu_to_node.assign(top + 1, -1);
  p.pu_to_llc.assign(top + 1, -1);
  for (std::size_t i = 0; i < p.cpus.size(); ++i) {
    p.pu_to_node[p.cpus[i]] = static_cast<int>(i % 2);  // a pretend two-node machine
    p.pu_to_llc[p.cpus[i]] = static_cast<int>(i);       // one LLC per PU
  }
  ForkStormResult r = run_fork_storm(p);
  ASSERT_GT(r.bogo_ops, 0u);
  EXPECT_EQ(sum(r.children_per_node), r.bogo_ops);
  EXPECT_EQ(sum(r.children_per_llc), r.bogo_ops);
  for (const auto& [node, n] : r.children_per_node) EXPECT_TRUE(node == 0 || node == 1) << node;
  // A PU alone in its LLC has no other PU of the LLC that could be idle.
  EXPECT_EQ(r.collisions_llc, 0u);
  EXPECT_TRUE(no_children_left());
}

// Above 126 PUs a child's PU no longer fits its exit status and goes
// through the shared record instead. PUs that do not exist are fine in an
// affinity mask (the kernel uses those that do), so a long cpulist is enough.
TEST(ForkStorm, ManyPusUseTheRecordPath) {
  ForkStormParams p;
  p.cpus = allowed_cpus();
  for (int c = p.cpus.back() + 1; p.cpus.size() < 300; ++c) p.cpus.push_back(c);
  p.workers = 2;
  p.fork_max = 3;
  p.duration = 150ms;
  ForkStormResult r = run_fork_storm(p);
  ASSERT_GT(r.bogo_ops, 0u);
  EXPECT_EQ(r.children_recorded, r.bogo_ops);
  EXPECT_EQ(sum(r.children_per_pu), r.bogo_ops);
  const std::vector<int> real = allowed_cpus();
  for (const auto& [pu, n] : r.children_per_pu) {
    EXPECT_NE(std::find(real.begin(), real.end(), pu), real.end()) << pu;
  }
  EXPECT_LE(r.same_pu, r.bogo_ops);
  EXPECT_TRUE(no_children_left());
}

// stress-ng's child body (setsid, setpgid..., sched_yield) still counts and
// records every child; setsid takes the child out of our process group, which
// must not lose it.
TEST(ForkStorm, StressNgChildBodyCountsTheSame) {
  for (bool record : {true, false}) {
    ForkStormParams p;
    p.cpus = allowed_cpus();
    p.workers = 2;
    p.fork_max = 2;
    p.duration = 150ms;
    p.record_placement = record;
    p.child_body = ChildBody::kStressNg;
    ForkStormResult r = run_fork_storm(p);
    EXPECT_GT(r.bogo_ops, 0u);
    if (record) {
      EXPECT_EQ(r.children_recorded, r.bogo_ops);
    }
    EXPECT_TRUE(no_children_left());
  }
}

TEST(ForkStorm, RecordingOffIsAPlainStorm) {
  ForkStormParams p;
  p.cpus = allowed_cpus();
  p.workers = 1;
  p.record_placement = false;
  p.duration = 150ms;
  ForkStormResult r = run_fork_storm(p);
  EXPECT_GT(r.bogo_ops, 0u);
  EXPECT_FALSE(r.recorded);
  EXPECT_TRUE(r.children_per_pu.empty());
  EXPECT_TRUE(no_children_left());
}

// The build puts schedrig-fork-creator in bin/, so creators exec it; without
// it they stay copies of the caller. Both count and record the same way.
TEST(ForkStorm, CreatorsExecTheHelperOrStayInProcess) {
  ASSERT_NE(find_fork_creator(), "");
  for (const std::string& exe : {std::string(kFindCreator), std::string()}) {
    ForkStormParams p;
    p.cpus = {allowed_cpus().front()};
    p.workers = 2;
    p.duration = 100ms;
    p.creator_exe = exe;
    ForkStormResult r = run_fork_storm(p);
    EXPECT_EQ(r.creators_exec, !exe.empty());
    EXPECT_GT(r.bogo_ops, 0u);
    EXPECT_EQ(r.children_recorded, r.bogo_ops);
    EXPECT_DOUBLE_EQ(r.same_pu_rate, 1.0);
    EXPECT_TRUE(no_children_left());
  }
}

TEST(ForkStorm, MissingHelperIsAWorkloadErrorNamingIt) {
  ForkStormParams p;
  p.cpus = allowed_cpus();
  p.workers = 3;
  p.duration = 100ms;
  p.creator_exe = "/nonexistent/schedrig-fork-creator";
  try {
    run_fork_storm(p);
    FAIL() << "expected WorkloadError";
  } catch (const WorkloadError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot exec /nonexistent/schedrig-fork-creator"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(no_children_left());
}

TEST(ForkStorm, HelperThatDiesAtStartIsAWorkloadError) {
  ForkStormParams p;
  p.cpus = allowed_cpus();
  p.workers = 2;
  p.duration = 100ms;
  p.creator_exe = "/bin/true";  // execs fine, never reaches the start gate
  try {
    run_fork_storm(p);
    FAIL() << "expected WorkloadError";
  } catch (const WorkloadError& e) {
    EXPECT_NE(
        std::string(e.what()).find("exited before it started (/bin/true: is it from this build?)"),
        std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(no_children_left());
}

TEST(ForkStorm, StopFlagEndsTheRunEarly) {
  ForkStormParams p;
  p.workers = 2;
  p.fork_max = 8;
  p.cpus = allowed_cpus();
  p.duration = 60s;
  auto [r, elapsed] = test::run_stopped_after(
      200ms, [&](const std::atomic<bool>* stop) { return run_fork_storm(p, stop); });
  EXPECT_LT(elapsed, 5s);
  EXPECT_GT(r.bogo_ops, 0u);
  EXPECT_EQ(r.children_recorded, r.bogo_ops);
  EXPECT_TRUE(no_children_left());
}

TEST(ForkStorm, UnpinnablePuIsAWorkloadError) {
  ForkStormParams p;
  p.cpus = {test::disallowed_pu()};
  p.duration = 100ms;
  try {
    run_fork_storm(p);
    FAIL() << "expected WorkloadError";
  } catch (const WorkloadError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot pin creator 1"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(no_children_left());
}

TEST(ForkStorm, ZeroWorkersIsRefused) {
  ForkStormParams p;
  p.workers = 0;
  p.cpus = {0};
  EXPECT_THROW(run_fork_storm(p), WorkloadError);
}

}  // namespace
}  // namespace schedrig::workloads
