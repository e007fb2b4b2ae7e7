// load_topology on hwloc synthetic descriptions.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "agent/topology/topology.h"
#include "common/cpulist.h"

namespace schedrig::topology {
namespace {

Topology synthetic(const std::string& desc) {
  return load_topology({Source::Kind::kSynthetic, desc});
}

TEST(TopologySynthetic, TwoPackagesTwoL3EachSmt2) {
  const Topology t = synthetic("pack:2 numa:1 l3:2 core:4 pu:2");
  EXPECT_EQ(t.packages, 2u);
  EXPECT_EQ(t.cores, 16u);
  EXPECT_EQ(t.pus, 32u);
  EXPECT_TRUE(t.smt);
  EXPECT_EQ(format_cpulist(t.online_cpus), "0-31");
  EXPECT_EQ(t.allowed_cpus, t.online_cpus);

  ASSERT_EQ(t.numa_nodes.size(), 2u);
  EXPECT_EQ(t.numa_nodes[0].os_index, 0u);
  EXPECT_EQ(format_cpulist(t.numa_nodes[0].cpus), "0-15");
  EXPECT_EQ(t.numa_nodes[1].os_index, 1u);
  EXPECT_EQ(format_cpulist(t.numa_nodes[1].cpus), "16-31");
  // hwloc gives each synthetic NUMA node 1 GiB unless the description says.
  EXPECT_EQ(t.numa_nodes[0].memory_bytes, 1ull << 30);

  ASSERT_EQ(t.llcs.size(), 4u);
  const char* expected[] = {"0-7", "8-15", "16-23", "24-31"};
  for (std::size_t i = 0; i < t.llcs.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(format_cpulist(t.llcs[i].cpus), expected[i]);
    EXPECT_EQ(t.llcs[i].level, 3u);
    EXPECT_EQ(t.llcs[i].shared_by, 4u);
    EXPECT_GT(t.llcs[i].size_bytes, 0u);
  }
}

TEST(TopologySynthetic, NoSmtWhenOnePuPerCore) {
  const Topology t = synthetic("pack:1 numa:1 l3:1 core:8 pu:1");
  EXPECT_EQ(t.packages, 1u);
  EXPECT_EQ(t.cores, 8u);
  EXPECT_EQ(t.pus, 8u);
  EXPECT_FALSE(t.smt);
  ASSERT_EQ(t.llcs.size(), 1u);
  EXPECT_EQ(t.llcs[0].shared_by, 8u);
}

// Ampere Altra style: caches only up to a private L2, so each core's L2 is its
// last-level cache, shared by one core.
TEST(TopologySynthetic, PerCoreL2IsTheLlcWhenNothingIsShared) {
  const Topology t = synthetic("pack:2 numa:1 l2:4 core:1 pu:1");
  EXPECT_EQ(t.cores, 8u);
  ASSERT_EQ(t.llcs.size(), 8u);
  for (const Llc& llc : t.llcs) {
    EXPECT_EQ(llc.level, 2u);
    EXPECT_EQ(llc.shared_by, 1u);
    EXPECT_EQ(llc.cpus.size(), 1u);
  }
  EXPECT_EQ(format_cpulist(t.llcs[5].cpus), "5");
}

TEST(TopologySynthetic, TheOutermostCacheWinsOverInnerOnes) {
  const Topology t = synthetic("pack:1 numa:1 l3:2 l2:2 l1d:1 core:1 pu:2");
  ASSERT_EQ(t.llcs.size(), 2u);
  EXPECT_EQ(t.llcs[0].level, 3u);
  EXPECT_EQ(t.llcs[0].shared_by, 2u);
  EXPECT_EQ(format_cpulist(t.llcs[1].cpus), "4-7");
}

TEST(TopologySynthetic, NoCacheMeansNoLlc) {
  const Topology t = synthetic("pack:1 numa:1 core:2 pu:2");
  EXPECT_TRUE(t.llcs.empty());
  EXPECT_EQ(t.pus, 4u);
  EXPECT_EQ(t.cores, 2u);
}

TEST(TopologySynthetic, PackagesCoresAndSmtSiblings) {
  // Linux numbering: siblings are n and n+8 (hwloc synthetic "indexes").
  const Topology t = synthetic("pack:2 numa:1 l3:1 core:4 pu:2(indexes=2*8:1*2)");
  ASSERT_EQ(t.package_cpus.size(), 2u);
  EXPECT_EQ(format_cpulist(t.package_cpus[0]), "0-3,8-11");
  EXPECT_EQ(format_cpulist(t.package_cpus[1]), "4-7,12-15");
  ASSERT_EQ(t.core_cpus.size(), 8u);
  EXPECT_EQ(t.core_cpus[0], (std::vector<int>{0, 8}));
  EXPECT_EQ(t.core_cpus[7], (std::vector<int>{7, 15}));
  EXPECT_TRUE(t.offline_pus.empty());
  EXPECT_TRUE(t.disallowed_pus.empty());
}

TEST(TopologySynthetic, SyntheticHasNoDistancesAndNoLiveFallback) {
  // Two nodes, no SLIT in a synthetic description; the live-only sysfs and
  // libnuma fallbacks must not fill one in from this machine.
  const Topology t = synthetic("pack:2 numa:1 core:2 pu:1");
  ASSERT_EQ(t.numa_nodes.size(), 2u);
  EXPECT_TRUE(t.distances.empty());
  EXPECT_EQ(t.distances_source, "");
}

// A group between the LLC and the cores is a cluster (Kunpeng-style); the
// groups hwloc makes to hold NUMA nodes are not.
TEST(TopologySynthetic, GroupsInsideAnLlcAreClusters) {
  const Topology t = synthetic("pack:2 numa:1 l3:1 group:4 core:4 pu:1");
  ASSERT_EQ(t.clusters.size(), 8u);
  EXPECT_EQ(format_cpulist(t.clusters[0]), "0-3");
  EXPECT_EQ(format_cpulist(t.clusters[7]), "28-31");
  ASSERT_GE(t.sched_domains.size(), 2u);
  EXPECT_EQ(t.sched_domains[0].name, "CLS");
  EXPECT_EQ(t.sched_domains[0].span, 4u);
  EXPECT_EQ(t.sched_domains[1].name, "MC");
  EXPECT_EQ(t.sched_domains[1].span, 16u);
  EXPECT_EQ(t.sched_domains[1].groups, 4u);

  EXPECT_TRUE(synthetic("pack:2 numa:2 l3:1 core:4 pu:2").clusters.empty());
  // A group as wide as the LLC is no cluster either.
  EXPECT_TRUE(synthetic("pack:1 numa:1 l3:2 group:1 core:4 pu:1").clusters.empty());
}

TEST(TopologySynthetic, ABadDescriptionNamesItself) {
  try {
    synthetic("bogus:3");
    FAIL() << "no TopologyError";
  } catch (const TopologyError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("synthetic 'bogus:3': ", 0), 0u) << what;
    EXPECT_NE(what.find("Invalid argument"), std::string::npos) << what;
  }
}

TEST(TopologySynthetic, AnEmptyDescriptionIsRefused) { EXPECT_THROW(synthetic(""), TopologyError); }

}  // namespace
}  // namespace schedrig::topology
