// check_plan_for_agent (host/plan_check/plan_check.h): plans checked against
// the Hello and Topology two agents on real machines (hwloc-profiles/)
// would send.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "agent/knobs/allowlist.h"
#include "agent/topology/topology.h"
#include "host/plan_check/plan_check.h"
#include "tests/support/hwloc_profile.h"

namespace schedrig::plan_check {
namespace {

const std::filesystem::path kSource(SCHEDRIG_SOURCE_DIR);

// The Topology message an agent on hwloc profile `name` sends.
v1::Topology topology_of(const std::string& name) {
  v1::Topology msg;
  topology::topology_to_proto(testing::hwloc_profile(name), &msg);
  return msg;
}

void add_knob(v1::Hello* hello, const std::string& name, const std::string& path, int err = 0) {
  v1::KnobCapability* cap = hello->add_knobs();
  cap->set_name(name);
  cap->set_path(path);
  cap->set_readable(err == 0);
  cap->set_writable(err == 0);
  cap->set_errno_value(err);
}

// A Hello as the agent's probe makes it: the features file, then every
// allowlisted sysctl and tunable, all usable; `features_errno` makes the
// features file unusable.
v1::Hello hello(int features_errno = 0) {
  v1::Hello h;
  h.set_hostname("box");
  h.set_agent_version("0.1.0");
  add_knob(&h, "sched_features", "/sys/kernel/debug/sched/features", features_errno);
  for (const auto& s : knobs::sysctl_allowlist()) {
    std::string path = std::string("/proc/sys/") + s.name;
    std::replace(path.begin(), path.end(), '.', '/');
    add_knob(&h, s.name, path);
  }
  for (const auto& s : knobs::debugfs_allowlist())
    add_knob(&h, s.name, std::string("/sys/kernel/debug/") + s.name);
  return h;
}

// box1 is a 2-socket EPYC 9654 in NPS4 (8 NUMA nodes), box2 the same in NPS1 (2 nodes).
struct Agent {
  std::string id;
  v1::Hello hello;
  v1::Topology topo;
};
const Agent& box1() {
  static const Agent a{"box1", hello(), topology_of("amd-epyc9654-2s-nps4")};
  return a;
}
const Agent& box2() {
  static const Agent a{"box2", hello(), topology_of("amd-epyc9654-2s-nps1")};
  return a;
}

// Parses `text` as plan.yaml and checks it for `agent`.
void check(const std::string& text, const Agent& agent) {
  PlanLines lines;
  const v1::Plan plan = parse_plan_yaml(text, "plan.yaml", &lines);
  check_plan_for_agent(plan, lines, "plan.yaml", agent.id, agent.hello, agent.topo);
}

// The PlanError check() throws; a failure when there is none.
PlanError error_of(const std::string& text, const Agent& agent) {
  try {
    check(text, agent);
  } catch (const PlanError& e) {
    return e;
  }
  ADD_FAILURE() << "no PlanError for agent " << agent.id << ":\n" << text;
  return PlanError("", 0, "", "", "");
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Line numbers are the comments'.
constexpr const char* kHeader = R"(name: check   # 1
duration_s: 1 # 2
)";

std::string plan(const std::string& rest) { return kHeader + rest; }

TEST(PlanCheck, ShippedDefaultPlanPassesOnBothMachines) {
  std::ifstream in(kSource / "plans" / "default.yaml");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NO_THROW(check(text.str(), box1()));
  EXPECT_NO_THROW(check(text.str(), box2()));
}

TEST(PlanCheck, PlacementValidOnOneMachineIsRefusedOnTheOther) {
  const std::string text = plan(R"(cases:              # 3
  - workload: fork    # 4
    placement: all    # 5
  - workload: fork    # 6
    params: {fork_max: 2}  # 7
    placement: node:3 # 8
)");
  EXPECT_NO_THROW(check(text, box1()));  // nodes 0-7
  const PlanError e = error_of(text, box2());
  EXPECT_EQ(e.file(), "plan.yaml");
  EXPECT_EQ(e.line(), 8);
  EXPECT_EQ(e.key(), "cases[1].placement");
  EXPECT_EQ(e.value(), "node:3");
  const std::string what = e.what();
  EXPECT_EQ(what.rfind("plan.yaml:8: key 'cases[1].placement': value 'node:3': placement "
                       "'node:3': no NUMA node 3; this machine has 2 nodes (0-1)",
                       0),
            0u)
      << what;
  EXPECT_TRUE(ends_with(what, " (agent box2)")) << what;
}

TEST(PlanCheck, PlacementBeyondTheMachinesPus) {
  const std::string text = plan(R"(cases:
  - workload: kv                  # 4
    placement: cpulist:0-3,400    # 5
)");
  const PlanError e = error_of(text, box1());
  EXPECT_EQ(e.line(), 5);
  EXPECT_EQ(e.key(), "cases[0].placement");
  EXPECT_EQ(e.value(), "cpulist:0-3,400");
}

TEST(PlanCheck, ParameterOutOfRange) {
  const std::string text = plan(R"(cases:              # 3
  - workload: fork    # 4
    params:           # 5
      workers: auto   # 6
      fork_max: 0     # 7
)");
  const PlanError e = error_of(text, box1());
  EXPECT_STREQ(e.what(),
               "plan.yaml:7: key 'cases[0].params.fork_max': value '0': fork: parameter "
               "'fork_max' = '0': must be an integer in [1, 16000] (agent box1)");
  EXPECT_EQ(e.line(), 7);
  EXPECT_EQ(e.key(), "cases[0].params.fork_max");
  EXPECT_EQ(e.value(), "0");
}

TEST(PlanCheck, RealParameterOutOfRange) {
  const std::string text = plan(R"(cases:
  - workload: kv                       # 4
    params: {read_ratio: 1.5}          # 5
)");
  EXPECT_STREQ(error_of(text, box2()).what(),
               "plan.yaml:5: key 'cases[0].params.read_ratio': value '1.5': kv: parameter "
               "'read_ratio' = '1.5': must be a number in [0, 1] (agent box2)");
}

TEST(PlanCheck, UnknownParameter) {
  const std::string text = plan(R"(cases:
  - workload: fork           # 4
    params: {forkmax: 3}     # 5
)");
  const PlanError e = error_of(text, box1());
  EXPECT_EQ(e.line(), 5);
  EXPECT_EQ(e.key(), "cases[0].params.forkmax");
  EXPECT_EQ(e.value(), "3");
  EXPECT_NE(std::string(e.what()).find("fork: parameter 'forkmax' is not known (known: "),
            std::string::npos)
      << e.what();
}

TEST(PlanCheck, UnknownWorkload) {
  const std::string text = plan(R"(cases:
  - workload: fork     # 4
  - workload: netperf  # 5
)");
  const PlanError e = error_of(text, box1());
  EXPECT_STREQ(e.what(),
               "plan.yaml:5: key 'cases[1].workload': value 'netperf': workload 'netperf' is "
               "not known (known: fork, wakeup, kv, schbench, stress-ng, hackbench, "
               "perf-bench-sched) (agent box1)");
}

TEST(PlanCheck, MembindKeyIsNamedForTheMembindParameter) {
  const std::string text = plan(R"(cases:
  - workload: kv            # 4
    membind: node:5000      # 5
)");
  const PlanError e = error_of(text, box1());
  EXPECT_EQ(e.line(), 5);
  EXPECT_EQ(e.key(), "cases[0].membind");
  EXPECT_EQ(e.value(), "node:5000");
}

// A node with no memory takes a binding and then fails every allocation
// (EINVAL): the plan check refuses it, naming the node, before any iteration.
TEST(PlanCheck, MembindToAMemorylessNodeIsRefusedNamingTheNode) {
  Agent memoryless = box1();
  memoryless.id = "box3";
  memoryless.topo.mutable_numa_nodes(3)->set_memory_bytes(0);
  const PlanError e = error_of(plan(R"(cases:
  - workload: kv            # 4
    membind: node:3         # 5
)"),
                               memoryless);
  EXPECT_EQ(e.line(), 5);
  EXPECT_EQ(e.key(), "cases[0].membind");
  EXPECT_EQ(e.value(), "node:3");
  EXPECT_STREQ(e.what(),
               "plan.yaml:5: key 'cases[0].membind': value 'node:3': membind 'node:3': NUMA node "
               "3 has no memory (0 bytes); nodes with memory: 0-2,4-7; supported: local, node:N, "
               "interleave (agent box3)");
  // Its neighbour has memory; box1's node 3 has it too.
  EXPECT_NO_THROW(check(plan("cases:\n  - workload: kv\n    membind: node:2\n"), memoryless));
  EXPECT_NO_THROW(check(plan("cases:\n  - workload: kv\n    membind: node:3\n"), box1()));
  // A node the agent does not have is refused the same way.
  EXPECT_EQ(error_of(plan("cases:\n  - workload: kv\n    membind: node:9\n"), box1()).key(),
            "cases[0].membind");
}

// The case's membind key and params.membind at once: one would be dropped
// unchecked, so the case is refused.
TEST(PlanCheck, MembindGivenTwiceIsRefused) {
  const PlanError e = error_of(plan(R"(cases:
  - workload: kv                       # 4
    params: {membind: local}           # 5
    membind: node:99                   # 6
)"),
                               box1());
  EXPECT_EQ(e.key(), "cases[0].membind");
  EXPECT_NE(std::string(e.what()).find("membind is given twice, as the case's membind 'node:99' "
                                       "and as params.membind 'local'; keep one"),
            std::string::npos)
      << e.what();
}

TEST(PlanCheck, LimitOnTwoParametersIsReportedAtParams) {
  const std::string text = plan(R"(cases:
  - workload: wakeup                                      # 4
    params: {message_threads: 1024, workers_per_message: 64}  # 5
)");
  const PlanError e = error_of(text, box1());
  EXPECT_EQ(e.line(), 5);
  EXPECT_EQ(e.key(), "cases[0].params");
  EXPECT_EQ(e.value(), "");
  EXPECT_NE(std::string(e.what()).find("make 66560 threads: must be at most 32768 (agent box1)"),
            std::string::npos)
      << e.what();
}

TEST(PlanCheck, UnknownSysctlGetsDidYouMean) {
  const std::string text = plan(R"(cases: [{workload: fork}]   # 3
variants:                            # 4
  - name: baseline                   # 5
  - name: autogroup-off              # 6
    sysctl:                          # 7
      kernel.sched_autogroup_enable: 0   # 8
)");
  const PlanError e = error_of(text, box1());
  // The agent's close_matches: the closest first, then names sharing "ker".
  EXPECT_STREQ(e.what(),
               "plan.yaml:8: key 'variants[1].sysctl.kernel.sched_autogroup_enable': value '0': "
               "sysctl 'kernel.sched_autogroup_enable' is not on schedrig's allowlist (did you "
               "mean kernel.sched_autogroup_enabled, kernel.sched_energy_aware, "
               "kernel.sched_rt_runtime_us?) (agent box1)");
}

TEST(PlanCheck, UnknownTunableGetsDidYouMean) {
  const std::string text = plan(R"(cases: [{workload: fork}]   # 3
variants:                            # 4
  - name: baseline                   # 5
  - name: short                      # 6
    debugfs: {sched/migration_cost: 1000}  # 7
)");
  const PlanError e = error_of(text, box2());
  EXPECT_EQ(e.line(), 7);
  EXPECT_EQ(e.key(), "variants[1].debugfs.sched/migration_cost");
  EXPECT_NE(std::string(e.what()).find("(did you mean sched/migration_cost_ns"), std::string::npos)
      << e.what();
}

TEST(PlanCheck, KnobValueOutOfRange) {
  const std::string text = plan(R"(cases: [{workload: fork}]   # 3
variants:                            # 4
  - name: baseline                   # 5
  - name: b                          # 6
  - name: autogroup                  # 7
    sysctl: {kernel.sched_autogroup_enabled: 2}  # 8
)");
  EXPECT_STREQ(
      error_of(text, box1()).what(),
      "plan.yaml:8: key 'variants[2].sysctl.kernel.sched_autogroup_enabled': value '2': "
      "kernel.sched_autogroup_enabled: value '2' is not an integer in [0, 1] (agent box1)");
}

TEST(PlanCheck, MalformedFeatureToken) {
  const std::string text = plan(R"(cases: [{workload: fork}]   # 3
variants:                            # 4
  - name: f                          # 5
    features: [NO_NI_RANDOM, ni_random]  # 6
)");
  const PlanError e = error_of(text, box1());
  EXPECT_EQ(e.line(), 6);
  EXPECT_EQ(e.key(), "variants[0].features[1]");
  EXPECT_EQ(e.value(), "ni_random");
}

const char* const kFeaturePlan = R"(cases: [{workload: fork}]   # 3
variants:                            # 4
  - name: baseline                   # 5
  - name: no-ni-random               # 6
    features:                        # 7
      - NO_NI_RANDOM                 # 8
)";

TEST(PlanCheck, UnwritableFeaturesFileNamesPathAndErrno) {
  const Agent locked{"box1", hello(EACCES), box1().topo};
  const PlanError e = error_of(plan(kFeaturePlan), locked);
  EXPECT_STREQ(e.what(),
               "plan.yaml:8: key 'variants[1].features[0]': value 'NO_NI_RANDOM': feature "
               "NO_NI_RANDOM cannot be changed on this agent (agent box1: "
               "/sys/kernel/debug/sched/features: EACCES)");
  EXPECT_EQ(e.key(), "variants[1].features[0]");
  EXPECT_EQ(e.value(), "NO_NI_RANDOM");
  EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);        // a facility, not a bad plan: exit 3
  EXPECT_NO_THROW(check(plan(kFeaturePlan), box2()));  // writable there
}

// The features file's names as a 6.x kernel lists them (a few of them).
Agent with_features(const Agent& agent) {
  Agent a = agent;
  for (auto& cap : *a.hello.mutable_knobs()) {
    if (cap.name() != "sched_features") continue;
    for (const char* f : {"GENTLE_FAIR_SLEEPERS", "NEXT_BUDDY", "NI_RANDOM", "TTWU_QUEUE"})
      cap.add_features(f);
  }
  return a;
}

TEST(PlanCheck, FeatureTheKernelDoesNotListNamesCloseMatches) {
  const std::string text = plan(R"(cases: [{workload: fork}]   # 3
variants:                            # 4
  - name: typo                       # 5
    features: [TTWU_QUEUE, NO_NI_RANDON]  # 6
)");
  const PlanError e = error_of(text, with_features(box1()));
  EXPECT_STREQ(e.what(),
               "plan.yaml:6: key 'variants[0].features[1]': value 'NO_NI_RANDON': sched feature "
               "'NI_RANDON' is not in /sys/kernel/debug/sched/features (4 features); did you mean "
               "NI_RANDOM? (agent box1)");
  EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  EXPECT_NO_THROW(check(plan(kFeaturePlan), with_features(box1())));  // NI_RANDOM is listed
  EXPECT_NO_THROW(check(text, box1()));  // an agent that lists none checks at run time
}

TEST(PlanCheck, UnwritableSysctl) {
  Agent ro = box2();
  for (auto& cap : *ro.hello.mutable_knobs()) {
    if (cap.name() == "kernel.numa_balancing") {
      cap.set_writable(false);
      cap.set_errno_value(EROFS);
    }
  }
  const std::string text = plan(R"(cases: [{workload: fork}]   # 3
variants:                            # 4
  - name: nb                         # 5
    sysctl: {kernel.numa_balancing: 0}  # 6
)");
  EXPECT_STREQ(error_of(text, ro).what(),
               "plan.yaml:6: key 'variants[0].sysctl.kernel.numa_balancing': value '0': sysctl "
               "kernel.numa_balancing=0 cannot be changed on this agent (agent box2: "
               "/proc/sys/kernel/numa_balancing: EROFS)");
}

TEST(PlanCheck, KnobTheAgentDoesNotReport) {
  Agent old = box1();
  old.hello.mutable_knobs()->RemoveLast();  // the last tunable of the allowlist
  const std::string name = knobs::debugfs_allowlist().back().name;
  const std::string text = plan(
      "cases: [{workload: fork}]\nvariants:\n  - name: x\n    debugfs: {" + name + ": 5}   # 6\n");
  const PlanError e = error_of(text, old);
  EXPECT_EQ(e.line(), 6);
  EXPECT_TRUE(ends_with(e.what(), "debugfs " + name +
                                      "=5 is not among the knobs this agent reports (agent box1: "
                                      "version 0.1.0)"))
      << e.what();
}

TEST(PlanCheck, CasesAreCheckedBeforeVariants) {
  const Agent locked{"box1", hello(EACCES), box1().topo};
  const std::string text = plan(R"(cases:
  - workload: fork              # 4
    placement: node:9           # 5
variants:                       # 6
  - name: f                     # 7
    features: [NO_NI_RANDOM]    # 8
)");
  EXPECT_EQ(error_of(text, locked).key(), "cases[0].placement");
}

TEST(PlanCheck, AgentWithoutTopology) {
  const Agent blank{"box3", hello(), v1::Topology()};
  const PlanError e = error_of(plan("cases: [{workload: fork}]\n"), blank);
  EXPECT_EQ(e.key(), "");
  EXPECT_EQ(e.line(), 0);
  EXPECT_STREQ(e.what(),
               "plan.yaml: agent box3 has not reported its topology (no allowed PUs), so its "
               "placements cannot be checked");
}

TEST(PlanCheck, MalformedTopologyNamesTheAgent) {
  Agent bad = box1();
  bad.topo.set_allowed_cpus("0-");
  const PlanError e = error_of(plan("cases: [{workload: fork}]\n"), bad);
  EXPECT_EQ(std::string(e.what()).rfind("plan.yaml: agent box1: agent topology: field "
                                        "'allowed_cpus': ",
                                        0),
            0u)
      << e.what();
}

}  // namespace
}  // namespace schedrig::plan_check
