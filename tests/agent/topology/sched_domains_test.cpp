// derive_sched_domains on hand-made topologies: the kernel's level rules
// (kernel/sched/topology.c) one at a time.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "agent/topology/topology.h"

namespace schedrig::topology {
namespace {

std::vector<int> range(int first, int last) {
  std::vector<int> out;
  for (int i = first; i <= last; ++i) out.push_back(i);
  return out;
}

// `nodes` nodes of `per_node` single-thread cores, one package and one LLC
// per node.
Topology nodes_of(int nodes, int per_node) {
  Topology t;
  for (int n = 0; n < nodes; ++n) {
    const std::vector<int> cpus = range(n * per_node, (n + 1) * per_node - 1);
    t.numa_nodes.push_back({.os_index = static_cast<unsigned>(n), .cpus = cpus, .memory_bytes = 1});
    t.package_cpus.push_back(cpus);
    t.llcs.push_back(
        {.cpus = cpus, .level = 3, .size_bytes = 0, .shared_by = static_cast<unsigned>(per_node)});
    for (int c : cpus) t.core_cpus.push_back({c});
  }
  t.online_cpus = range(0, nodes * per_node - 1);
  t.allowed_cpus = t.online_cpus;
  return t;
}

std::vector<std::string> names(const std::vector<SchedDomainLevel>& levels) {
  std::vector<std::string> out;
  for (const auto& l : levels) out.push_back(l.name);
  return out;
}

using Strings = std::vector<std::string>;

TEST(SchedDomains, OnePuHasNoDomains) {
  EXPECT_TRUE(derive_sched_domains(nodes_of(1, 1)).empty());
  EXPECT_TRUE(derive_sched_domains(Topology{}).empty());
}

// The LLC and the node are the same 4 PUs: PKG repeats MC and is dropped;
// single-PU SMT/CLS at the bottom are dropped too (sd_degenerate).
TEST(SchedDomains, LevelsEqualToTheirChildAreDropped) {
  const auto levels = derive_sched_domains(nodes_of(1, 4));
  ASSERT_EQ(levels.size(), 1u);
  EXPECT_EQ(levels[0].name, "MC");
  EXPECT_EQ(levels[0].span, 4u);
  EXPECT_EQ(levels[0].groups, 4u);
  EXPECT_EQ(levels[0].domains, 1u);
}

// Without a SLIT Linux uses 10 local / 20 remote: one NUMA level.
TEST(SchedDomains, NoDistancesMeansOneRemoteLevel) {
  const auto levels = derive_sched_domains(nodes_of(2, 4));
  EXPECT_EQ(names(levels), (Strings{"MC", "NUMA"}));
  EXPECT_EQ(levels[1].distance, 20u);
  EXPECT_EQ(levels[1].span, 8u);
  EXPECT_EQ(levels[1].groups, 2u);
}

// One NUMA level per distinct distance; the build stops at the first level
// spanning every PU.
TEST(SchedDomains, OneNumaLevelPerDistinctDistance) {
  Topology t = nodes_of(4, 2);
  t.distances = {{10, 12, 20, 20}, {12, 10, 20, 20}, {20, 20, 10, 12}, {20, 20, 12, 10}};
  const auto levels = derive_sched_domains(t);
  EXPECT_EQ(names(levels), (Strings{"MC", "NUMA", "NUMA"}));
  EXPECT_EQ(levels[1].distance, 12u);
  EXPECT_EQ(levels[1].span, 4u);
  EXPECT_EQ(levels[1].domains, 2u);
  EXPECT_EQ(levels[2].distance, 20u);
  EXPECT_EQ(levels[2].span, 8u);
  EXPECT_EQ(levels[2].groups, 2u);
}

// A memory-only node's distances make no level (sched_init_numa only looks
// at nodes with CPUs).
TEST(SchedDomains, MemoryOnlyNodesAddNoLevel) {
  Topology t = nodes_of(2, 2);
  t.numa_nodes.push_back({.os_index = 2, .cpus = {}, .memory_bytes = 1});
  t.distances = {{10, 21, 14}, {21, 10, 24}, {14, 24, 10}};
  const auto levels = derive_sched_domains(t);
  EXPECT_EQ(names(levels), (Strings{"MC", "NUMA"}));
  EXPECT_EQ(levels[1].distance, 21u);
}

// The MC mask is the LLC bounded by the node: with an LLC across two nodes
// (Intel SNC) MC is the node, and PKG (also the node) is dropped.
TEST(SchedDomains, McIsBoundedByTheNode) {
  Topology t = nodes_of(2, 4);
  t.llcs = {{.cpus = range(0, 7), .level = 3, .size_bytes = 0, .shared_by = 8}};
  t.package_cpus = {range(0, 7)};
  const auto levels = derive_sched_domains(t);
  EXPECT_EQ(names(levels), (Strings{"MC", "NUMA"}));
  EXPECT_EQ(levels[0].span, 4u);
}

// Clusters make a CLS level under MC; SMT siblings a level under that.
TEST(SchedDomains, SmtClusterMcPkgNuma) {
  Topology t = nodes_of(2, 8);
  t.core_cpus.clear();
  for (int c = 0; c < 16; c += 2) t.core_cpus.push_back({c, c + 1});
  t.clusters = {range(0, 3), range(4, 7), range(8, 11), range(12, 15)};
  t.llcs = {{.cpus = range(0, 3), .level = 3, .size_bytes = 0, .shared_by = 2},
            {.cpus = range(4, 7), .level = 3, .size_bytes = 0, .shared_by = 2},
            {.cpus = range(8, 11), .level = 3, .size_bytes = 0, .shared_by = 2},
            {.cpus = range(12, 15), .level = 3, .size_bytes = 0, .shared_by = 2}};
  const auto levels = derive_sched_domains(t);
  // The cluster equals the LLC here: cpu_clustergroup_mask() may not be as
  // wide as MC (drivers/base/arch_topology.c, Linux 5.19+), so it falls back
  // to the SMT mask and MC stands: SMT 2, MC 4, PKG 8, NUMA 16.
  EXPECT_EQ(names(levels), (Strings{"SMT", "MC", "PKG", "NUMA"}));
  EXPECT_EQ(levels[1].span, 4u);
  EXPECT_EQ(levels[1].groups, 2u);
  EXPECT_EQ(levels[2].span, 8u);
  EXPECT_EQ(levels[2].groups, 2u);
}

// Ampere Altra: no shared CPU cache. MC collapses to one PU and goes; PKG is
// the socket with one group per PU; NUMA has two groups of 80.
TEST(SchedDomains, NoSharedCacheLeavesPkgAndNuma) {
  Topology t = nodes_of(2, 80);
  t.llcs.clear();
  for (int c = 0; c < 160; ++c)
    t.llcs.push_back({.cpus = {c}, .level = 2, .size_bytes = 0, .shared_by = 1});
  const auto levels = derive_sched_domains(t);
  EXPECT_EQ(names(levels), (Strings{"PKG", "NUMA"}));
  EXPECT_EQ(levels[0].span, 80u);
  EXPECT_EQ(levels[0].groups, 80u);
  EXPECT_EQ(levels[1].span, 160u);
  EXPECT_EQ(levels[1].groups, 2u);
}

// An offline sibling leaves some cores with one PU: SMT only where two are
// online, and the level reports its narrowest and widest span.
TEST(SchedDomains, UnevenLevelsReportMinAndMaxSpan) {
  Topology t = nodes_of(1, 6);
  t.core_cpus = {{0, 1}, {2}, {3}, {4}, {5}};
  t.llcs = {{.cpus = range(0, 3), .level = 3, .size_bytes = 0, .shared_by = 3},
            {.cpus = range(4, 5), .level = 3, .size_bytes = 0, .shared_by = 2}};
  const auto levels = derive_sched_domains(t);
  ASSERT_EQ(names(levels), (Strings{"SMT", "MC", "PKG"}));
  EXPECT_EQ(levels[0].domains, 1u);  // only core {0,1} has two online PUs
  EXPECT_EQ(levels[1].span, 4u);
  EXPECT_EQ(levels[1].min_span, 2u);
  EXPECT_EQ(levels[1].domains, 2u);
  EXPECT_EQ(levels[1].groups, 3u);  // {0,1}, {2}, {3}
  EXPECT_EQ(levels[2].span, 6u);
  EXPECT_EQ(levels[2].groups, 2u);  // the two LLCs
}

}  // namespace
}  // namespace schedrig::topology
