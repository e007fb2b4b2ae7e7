// resolve_placement on synthetic and hand-made topologies: each policy's
// rule and each error.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "agent/placement/placement.h"
#include "common/cpulist.h"

namespace schedrig::placement {
namespace {

using topology::Source;

topology::Topology synthetic(const std::string& desc = "pack:2 numa:1 l3:2 core:4 pu:2") {
  return topology::load_topology({Source::Kind::kSynthetic, desc});
}

// Two packages, one node each, two L3 per package, 4 cores per L3, Linux
// numbering (siblings n and n+16): L3 0 = 0-3,16-19 ... L3 3 = 12-15,28-31.
topology::Topology linux_numbered() {
  return synthetic("pack:2 numa:1 l3:2 core:4 pu:2(indexes=2*16:1*2)");
}

std::string cpus(const std::string& policy, const topology::Topology& t) {
  return format_cpulist(resolve_placement(policy, t).cpus);
}

// Expects resolve_placement(policy) to throw and returns the message.
std::string error_of(const std::string& policy, const topology::Topology& t) {
  try {
    resolve_placement(policy, t);
  } catch (const PlacementError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no PlacementError for '" << policy << "'";
  return "";
}

void expect_starts_with(const std::string& what, const std::string& prefix) {
  EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
}

void expect_names_supported_forms(const std::string& what) {
  for (const char* form : {"all", "cpulist:LIST", "cpus:LIST", "node:N", "package:N", "llc:N",
                           "compact:K", "spread:K", "split:K"})
    EXPECT_NE(what.find(form), std::string::npos) << form << " in " << what;
}

TEST(Placement, AllIsEveryAllowedPu) {
  const Placement p = resolve_placement("all", synthetic());
  EXPECT_EQ(format_cpulist(p.cpus), "0-31");
  EXPECT_EQ(p.policy, "all");
  EXPECT_TRUE(p.message_cpus.empty());
  EXPECT_TRUE(p.worker_cpus.empty());
}

TEST(Placement, AllFollowsAllowedNotOnline) {
  topology::Topology t = synthetic();
  t.allowed_cpus = {2, 3, 4, 5};
  EXPECT_EQ(resolve_placement("all", t).cpus, (std::vector<int>{2, 3, 4, 5}));
}

TEST(Placement, CpulistAndItsCpusAlias) {
  const topology::Topology t = synthetic();
  EXPECT_EQ(resolve_placement("cpulist:0-3", t).cpus, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(resolve_placement("cpus:8,0-1,31", t).cpus, (std::vector<int>{0, 1, 8, 31}));
  EXPECT_EQ(resolve_placement("cpus:8,0-1,31", t).policy, "cpus:8,0-1,31");
}

TEST(Placement, CpusOutsideAllowedAreRefused) {
  const std::string what = error_of("cpulist:999", synthetic());
  expect_starts_with(what, "placement 'cpulist:999': PU 999 is not in the allowed cpulist '0-31'");
  expect_names_supported_forms(what);
}

TEST(Placement, CpusAllowedButNotAllAreRefusedNamingTheRest) {
  topology::Topology t = synthetic();
  t.allowed_cpus = {0, 1};
  const std::string what = error_of("cpus:0-3", t);
  EXPECT_NE(what.find("PUs 2-3 are not in the allowed cpulist '0-1'"), std::string::npos) << what;
}

TEST(Placement, ABadOrEmptyCpulistIsRefused) {
  const topology::Topology t = synthetic();
  expect_starts_with(error_of("cpus:3-1", t), "placement 'cpus:3-1': ");
  EXPECT_NE(error_of("cpulist:", t).find("empty"), std::string::npos);
}

TEST(Placement, NodePackageLlc) {
  const topology::Topology t = linux_numbered();
  EXPECT_EQ(cpus("node:0", t), "0-7,16-23");
  EXPECT_EQ(cpus("node:1", t), "8-15,24-31");
  EXPECT_EQ(cpus("package:1", t), "8-15,24-31");
  EXPECT_EQ(cpus("llc:0", t), "0-3,16-19");
  EXPECT_EQ(cpus("llc:3", t), "12-15,28-31");
}

TEST(Placement, NodePackageLlcKeepOnlyAllowedPus) {
  topology::Topology t = linux_numbered();
  t.allowed_cpus = parse_cpulist("0-9");
  EXPECT_EQ(cpus("node:1", t), "8-9");
  EXPECT_EQ(cpus("llc:2", t), "8-9");
  expect_starts_with(error_of("llc:3", t),
                     "placement 'llc:3': none of llc 3's PUs (12-15,28-31) is allowed here "
                     "(allowed cpulist '0-9')");
}

TEST(Placement, NumbersOutOfRangeNameTheMachinesLimit) {
  const topology::Topology t = linux_numbered();
  std::string what = error_of("node:3", t);
  expect_starts_with(what, "placement 'node:3': no NUMA node 3; this machine has 2 nodes (0-1)");
  expect_names_supported_forms(what);
  expect_starts_with(error_of("package:2", t),
                     "placement 'package:2': no package 2; this machine has 2 (package:0 to "
                     "package:1)");
  expect_starts_with(error_of("llc:4", t),
                     "placement 'llc:4': no llc 4; this machine has 4 (llc:0 to llc:3)");
}

TEST(Placement, MalformedNumbersAreRefused) {
  const topology::Topology t = synthetic();
  for (const char* policy :
       {"node:", "node:x", "node:-1", "node:1x", "llc: 1", "compact:", "spread:1.5", "split:+2"}) {
    SCOPED_TRACE(policy);
    const std::string what = error_of(policy, t);
    expect_starts_with(what, std::string("placement '") + policy + "': ");
    EXPECT_NE(what.find("is not a"), std::string::npos) << what;
  }
}

// A number too big for the count is out of range, not "not a number".
TEST(Placement, HugeNumbersAreOutOfRange) {
  const topology::Topology t = synthetic();
  expect_starts_with(error_of("compact:99999999999", t),
                     "placement 'compact:99999999999': PU count K '99999999999' is out of range");
  expect_starts_with(
      error_of("node:99999999999", t),
      "placement 'node:99999999999': NUMA node number '99999999999' is out of range");
}

// One LLC at a time, first threads of its cores before their siblings.
TEST(Placement, CompactFillsOneLlcFirstThreadsFirst) {
  const topology::Topology t = linux_numbered();
  EXPECT_EQ(cpus("compact:1", t), "0");
  EXPECT_EQ(cpus("compact:4", t), "0-3");
  EXPECT_EQ(cpus("compact:6", t), "0-3,16-17");
  EXPECT_EQ(cpus("compact:8", t), "0-3,16-19");
  EXPECT_EQ(cpus("compact:9", t), "0-4,16-19");
  EXPECT_EQ(cpus("compact:32", t), "0-31");
}

// Packages first, then nodes, LLCs, cores; SMT siblings only when every core
// already has one PU.
TEST(Placement, SpreadRoundRobinsPackagesThenLlcsThenCores) {
  const topology::Topology t = linux_numbered();
  EXPECT_EQ(cpus("spread:1", t), "0");
  EXPECT_EQ(cpus("spread:2", t), "0,8");
  EXPECT_EQ(cpus("spread:4", t), "0,4,8,12");  // two per package, one per LLC
  EXPECT_EQ(cpus("spread:8", t), "0-1,4-5,8-9,12-13");
  EXPECT_EQ(cpus("spread:16", t), "0-15");  // every core once, no sibling yet
  EXPECT_EQ(cpus("spread:17", t), "0-16");
}

TEST(Placement, SplitSpreadsMessagePusAndGivesWorkersTheRest) {
  const topology::Topology t = linux_numbered();
  const Placement p = resolve_placement("split:2", t);
  EXPECT_EQ(format_cpulist(p.cpus), "0-31");
  EXPECT_EQ(format_cpulist(p.message_cpus), "0,8");  // one per node
  EXPECT_EQ(format_cpulist(p.worker_cpus), "1-7,9-31");
  EXPECT_EQ(p.policy, "split:2");
  const Placement four = resolve_placement("split:4", t);
  EXPECT_EQ(format_cpulist(four.message_cpus), "0,4,8,12");  // then one per LLC
  EXPECT_EQ(four.message_cpus.size() + four.worker_cpus.size(), four.cpus.size());
}

TEST(Placement, CountsAreCheckedAgainstTheAllowedPus) {
  topology::Topology t = synthetic();
  t.allowed_cpus = parse_cpulist("0-3");
  expect_starts_with(error_of("compact:5", t),
                     "placement 'compact:5': K = 5 is more than the 4 PUs allowed on this machine "
                     "(cpulist '0-3')");
  expect_starts_with(error_of("spread:0", t), "placement 'spread:0': K must be at least 1");
  expect_starts_with(error_of("split:4", t),
                     "placement 'split:4': K = 4 leaves no worker PU: this machine allows 4 PUs "
                     "(cpulist '0-3'), so K can be at most 3");
  expect_starts_with(error_of("split:0", t), "placement 'split:0': K must be at least 1");
  EXPECT_EQ(format_cpulist(resolve_placement("spread:2", t).cpus), "0,2");
}

TEST(Placement, DisallowedSiblingsLeaveTheOtherThreadFirst) {
  topology::Topology t = linux_numbered();
  t.allowed_cpus = parse_cpulist("1-31");     // PU 0 (core 0's first thread) not allowed
  EXPECT_EQ(cpus("compact:4", t), "1-3,16");  // core 0 still has PU 16 first
  EXPECT_EQ(cpus("spread:1", t), "16");
}

// A memory-only node (hand-made: node 8 with memory, no CPUs).
TEST(Placement, MemoryOnlyNodeIsRefused) {
  topology::Topology t = synthetic("pack:1 numa:1 l3:1 core:4 pu:1");
  t.numa_nodes.push_back({.os_index = 8, .cpus = {}, .memory_bytes = 16ull << 30});
  expect_starts_with(error_of("node:8", t),
                     "placement 'node:8': NUMA node 8 has no CPUs (memory only); nodes with CPUs: "
                     "0");
}

// hwloc finds no caches: compact and spread still work core by core.
TEST(Placement, NoCachesStillPlaceByCore) {
  const topology::Topology t = synthetic("pack:1 numa:1 core:4 pu:2");
  EXPECT_EQ(cpus("compact:3", t), "0,2,4");
  EXPECT_EQ(cpus("spread:5", t), "0-2,4,6");
  expect_starts_with(error_of("llc:0", t),
                     "placement 'llc:0': hwloc finds no LLCs on this machine");
}

TEST(Placement, AnUnknownPolicyIsRefused) {
  for (const char* policy : {"bogus", "node", "All", "cpus", ""}) {
    SCOPED_TRACE(policy);
    const std::string what = error_of(policy, synthetic());
    expect_starts_with(what, std::string("placement '") + policy + "': unknown policy; supported:");
    expect_names_supported_forms(what);
  }
}

TEST(Placement, ErrorsAreInvalidArgument) {
  EXPECT_THROW(resolve_placement("node:7", synthetic()), std::invalid_argument);
}

TEST(Placement, NoAllowedPusIsAnError) {
  topology::Topology t = synthetic();
  t.allowed_cpus.clear();
  expect_starts_with(error_of("all", t), "placement 'all': this topology has no allowed PUs");
}

TEST(Placement, AllOnThisMachineIsItsAllowedCpus) {
  const topology::Topology t = topology::load_topology({});
  EXPECT_EQ(resolve_placement("all", t).cpus, t.allowed_cpus);
}

TEST(Placement, HelpNamesEveryPolicyWithAnExample) {
  const std::string help = policy_help();
  for (const char* example : {"e.g. all", "e.g. cpulist:0-3,8", "e.g. node:1", "e.g. package:0",
                              "e.g. llc:3", "e.g. compact:8", "e.g. spread:4", "e.g. split:2"})
    EXPECT_NE(help.find(example), std::string::npos) << example;
}

}  // namespace
}  // namespace schedrig::placement
