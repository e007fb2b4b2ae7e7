// load_topology on real hwloc XML files from ../shared/fixtures/topologies
// (see its README.md for what each machine holds).
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "agent/topology/topology.h"
#include "common/cpulist.h"
#include "tests/support/fixtures.h"

namespace schedrig::topology {
namespace {

std::string fixture(const std::string& name) {
  return testing::fixture_path("topologies/" + name).string();
}

Topology load_xml(const std::string& path) { return load_topology({Source::Kind::kXml, path}); }

// "NAME span N/groups G" per sched-domain level, bottom up.
std::vector<std::string> domains(const Topology& t) {
  std::vector<std::string> out;
  for (const SchedDomainLevel& l : t.sched_domains) {
    std::string s = fmt::format("{} {}/{}", l.name, l.span, l.groups);
    if (l.min_span != l.span) s += fmt::format(" min {}", l.min_span);
    out.push_back(s);
  }
  return out;
}

using Strings = std::vector<std::string>;

bool all_llcs(const Topology& t, unsigned level, unsigned shared_by) {
  return std::all_of(t.llcs.begin(), t.llcs.end(), [&](const Llc& llc) {
    return llc.level == level && llc.shared_by == shared_by;
  });
}

TEST(TopologyXml, Epyc7742Nps4) {
  const std::string path = fixture("amd-epyc7742-2s-smt_nps4_256pu.v2.xml");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(t.packages, 2u);
  EXPECT_EQ(t.cores, 128u);
  EXPECT_EQ(t.pus, 256u);
  EXPECT_TRUE(t.smt);
  EXPECT_EQ(format_cpulist(t.online_cpus), "0-255");
  EXPECT_EQ(t.allowed_cpus, t.online_cpus);

  // NPS4: 8 nodes of 16 cores; SMT siblings are P#n and P#n+128.
  ASSERT_EQ(t.numa_nodes.size(), 8u);
  EXPECT_EQ(format_cpulist(t.numa_nodes[0].cpus), "0-15,128-143");
  EXPECT_EQ(format_cpulist(t.numa_nodes[7].cpus), "112-127,240-255");
  EXPECT_EQ(t.numa_nodes[0].memory_bytes, 65596992ull * 1024);  // lstopo: local=65596992KB

  // One 16 MiB L3 per 4-core CCX.
  ASSERT_EQ(t.llcs.size(), 32u);
  EXPECT_TRUE(all_llcs(t, 3, 4));
  EXPECT_EQ(format_cpulist(t.llcs[0].cpus), "0-3,128-131");
  EXPECT_EQ(format_cpulist(t.llcs[31].cpus), "124-127,252-255");
  EXPECT_EQ(t.llcs[0].size_bytes, 16ull << 20);

  // The export's NUMALatency: 10 local, 12 same socket, 32 other socket.
  EXPECT_EQ(t.distances_source, "hwloc");
  ASSERT_EQ(t.distances.size(), 8u);
  EXPECT_EQ(t.distances[0], (std::vector<unsigned>{10, 12, 12, 12, 32, 32, 32, 32}));
  EXPECT_EQ(t.distances[5], (std::vector<unsigned>{32, 32, 32, 32, 12, 10, 12, 12}));
  // SMT pairs, 4-core CCX (MC), the NPS4 node, the socket, the machine. Four
  // nodes in a package: x86 drops PKG (x86_has_numa_in_package) and the
  // node level is sched_init_numa's NODE.
  EXPECT_EQ(t.arch, "x86_64");
  EXPECT_EQ(domains(t), (Strings{"SMT 2/2", "MC 8/4", "NODE 32/4", "NUMA 128/4", "NUMA 256/2"}));
  EXPECT_NE(t.sched_domains[2].rule.find("x86_has_numa_in_package"), std::string::npos);
  EXPECT_EQ(t.sched_domains[3].distance, 12u);
  EXPECT_EQ(t.sched_domains[4].distance, 32u);
  ASSERT_EQ(t.core_cpus.size(), 128u);
  EXPECT_EQ(t.core_cpus[0], (std::vector<int>{0, 128}));
}

TEST(TopologyXml, Epyc7402Nps1ThreeCoreCcx) {
  const std::string path = fixture("amd-epyc7402-2s-smt_nps1_96pu.v2.xml");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(t.packages, 2u);
  EXPECT_EQ(t.numa_nodes.size(), 2u);
  EXPECT_EQ(t.cores, 48u);
  EXPECT_EQ(t.pus, 96u);
  ASSERT_EQ(t.llcs.size(), 16u);
  EXPECT_TRUE(all_llcs(t, 3, 3));
  EXPECT_EQ(format_cpulist(t.llcs[0].cpus), "0-2,48-50");
  EXPECT_EQ(t.distances, (std::vector<std::vector<unsigned>>{{10, 32}, {32, 10}}));
  EXPECT_EQ(domains(t), (Strings{"SMT 2/2", "MC 6/3", "PKG 48/8", "NUMA 96/2"}));
}

// Xeon Max flat mode: HBM nodes 8-15 have no CPUs (hwloc gives them their DDR
// sibling's cpuset; Linux gives them an empty cpulist).
TEST(TopologyXml, XeonMaxHbmNodesAreMemoryOnly) {
  const std::string path = fixture("intel-xeonmax9462-2s-snc4-hbm-flat_16numa_128pu.v2.xml");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(t.packages, 2u);
  EXPECT_EQ(t.cores, 64u);
  EXPECT_EQ(t.pus, 128u);
  ASSERT_EQ(t.numa_nodes.size(), 16u);
  for (unsigned i = 0; i < 16; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(t.numa_nodes[i].os_index, i);
    if (i < 8) {
      EXPECT_EQ(t.numa_nodes[i].cpus.size(), 16u);
    } else {
      EXPECT_TRUE(t.numa_nodes[i].cpus.empty());
      EXPECT_EQ(t.numa_nodes[i].memory_bytes, 16ull << 30);
    }
  }
  EXPECT_EQ(format_cpulist(t.numa_nodes[0].cpus), "0-7,64-71");
  ASSERT_EQ(t.llcs.size(), 2u);
  EXPECT_TRUE(all_llcs(t, 3, 32));

  // The full 16x16 matrix, HBM nodes included (13 to the node's own HBM).
  ASSERT_EQ(t.distances.size(), 16u);
  EXPECT_EQ(t.distances[0][8], 13u);
  EXPECT_EQ(t.distances[8][8], 10u);
  EXPECT_EQ(t.distances[8][12], 23u);
  // CPU-less HBM nodes add no NUMA level (their 13, 14 and 23 are ignored):
  // SMT, MC bounded by the SNC node (the L3 spans the socket), then 12 and 21.
  EXPECT_EQ(domains(t), (Strings{"SMT 2/2", "MC 16/8", "NUMA 64/4", "NUMA 128/2"}));
  EXPECT_EQ(t.sched_domains[2].distance, 12u);
  EXPECT_EQ(t.sched_domains[3].distance, 21u);
}

// SNC2 interleaves CPUs between nodes; Optane memory mode puts a MemCache in
// front of every node, which is no CPU cache.
TEST(TopologyXml, XeonGold6230Snc2WithMemCache) {
  const std::string path = fixture("intel-xeon-gold6230-2s-snc2-smt_80pu_optane-memcache.v2.xml");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(t.packages, 2u);
  EXPECT_EQ(t.cores, 40u);
  EXPECT_EQ(t.pus, 80u);
  EXPECT_TRUE(t.smt);
  ASSERT_EQ(t.numa_nodes.size(), 4u);
  EXPECT_EQ(t.numa_nodes[0].cpus, parse_cpulist("0-76:4"));
  EXPECT_EQ(t.numa_nodes[1].cpus, parse_cpulist("1-77:4"));
  EXPECT_EQ(t.numa_nodes[2].cpus, parse_cpulist("2-78:4"));
  EXPECT_EQ(t.numa_nodes[3].cpus, parse_cpulist("3-79:4"));
  ASSERT_EQ(t.llcs.size(), 2u);
  EXPECT_TRUE(all_llcs(t, 3, 20));
  EXPECT_EQ(t.llcs[0].cpus, parse_cpulist("0-78:2"));
  EXPECT_EQ(t.llcs[0].size_bytes, 28160ull * 1024);
  // Package 0 holds nodes 0 and 2 (distance 11), package 1 nodes 1 and 3.
  EXPECT_EQ(t.distances[0], (std::vector<unsigned>{10, 21, 11, 21}));
  EXPECT_EQ(domains(t), (Strings{"SMT 2/2", "MC 20/10", "NUMA 40/2", "NUMA 80/2"}));
}

TEST(TopologyXml, KunpengDerivedFourL3NoSmt) {
  const std::string path =
      fixture("huawei-kunpeng920-2s_128pu_cluster4.DERIVED-by-hwloc-2.9.0.v2.xml");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(t.packages, 2u);  // P#36 and P#8442: counted, never indexed
  EXPECT_EQ(t.cores, 128u);
  EXPECT_EQ(t.pus, 128u);
  EXPECT_FALSE(t.smt);
  ASSERT_EQ(t.numa_nodes.size(), 4u);
  EXPECT_EQ(format_cpulist(t.numa_nodes[3].cpus), "96-127");
  ASSERT_EQ(t.llcs.size(), 4u);
  EXPECT_TRUE(all_llcs(t, 3, 32));
  EXPECT_EQ(format_cpulist(t.llcs[1].cpus), "32-63");

  // hwloc's Group0 of subtype "Cluster": 32 clusters of 4 cores.
  ASSERT_EQ(t.clusters.size(), 32u);
  EXPECT_EQ(format_cpulist(t.clusters[0]), "0-3");
  EXPECT_EQ(format_cpulist(t.clusters[31]), "124-127");
  // SLIT 10/16/25/32/33 (node 0 to 3 is 33, node 1 to 2 is 25): an
  // asymmetric mesh, so the NUMA levels differ from node to node.
  EXPECT_EQ(t.distances,
            (std::vector<std::vector<unsigned>>{
                {10, 16, 32, 33}, {16, 10, 25, 32}, {32, 25, 10, 16}, {33, 32, 16, 10}}));
  EXPECT_EQ(domains(t), (Strings{"CLS 4/4", "MC 32/8", "NUMA 64/2", "NUMA 96/2",
                                 "NUMA 128/2 min 96", "NUMA 128/2"}));
}

TEST(TopologyXml, ThunderX2V1Smt4) {
  const std::string path = fixture("cavium-thunderx2-2s-smt4_256pu.v1.xml");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(t.packages, 2u);
  EXPECT_EQ(t.numa_nodes.size(), 2u);
  EXPECT_EQ(t.cores, 64u);
  EXPECT_EQ(t.pus, 256u);
  EXPECT_TRUE(t.smt);
  ASSERT_EQ(t.llcs.size(), 2u);
  EXPECT_TRUE(all_llcs(t, 3, 32));
}

// XML v1 without any NUMANode: hwloc 2.9 adds one covering everything.
TEST(TopologyXml, SilverV1WithoutNumaNodeGetsOne) {
  const std::string path = fixture("intel-xeon-silver4215-1s-smt_16pu_small.v1.xml");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(t.packages, 1u);
  EXPECT_EQ(t.cores, 8u);
  EXPECT_EQ(t.pus, 16u);
  ASSERT_EQ(t.numa_nodes.size(), 1u);
  EXPECT_EQ(format_cpulist(t.numa_nodes[0].cpus), "0-15");
  ASSERT_EQ(t.llcs.size(), 1u);
  EXPECT_EQ(t.llcs[0].shared_by, 8u);
}

// cpuset 0x905b of complete_cpuset 0xffff: 7 of 16 PUs online.
TEST(TopologyXml, OfflinePusAreNotOnline) {
  const std::string path = fixture("intel-xeon-4s-2c-2t_offline-cpus.v2.xml");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(format_cpulist(t.online_cpus), "0-1,3-4,6,12,15");
  EXPECT_EQ(format_cpulist(t.offline_pus), "2,5,7-11,13-14");
  EXPECT_TRUE(t.disallowed_pus.empty());
  EXPECT_EQ(t.pus, 7u);
  EXPECT_EQ(t.cores, 6u);
  EXPECT_EQ(t.packages, 4u);
  EXPECT_TRUE(t.smt);
  ASSERT_EQ(t.numa_nodes.size(), 1u);
  EXPECT_EQ(t.numa_nodes[0].cpus, t.online_cpus);
  ASSERT_EQ(t.llcs.size(), 4u);
  EXPECT_EQ(format_cpulist(t.llcs[0].cpus), "0,4,12");
  EXPECT_EQ(t.llcs[0].shared_by, 2u);
  EXPECT_EQ(format_cpulist(t.llcs[3].cpus), "3,15");
  // Only core {4,12} keeps both threads: one SMT domain. Packages keep 1 to 3
  // online PUs, so MC spans vary; one node holds them all (PKG).
  EXPECT_EQ(domains(t), (Strings{"SMT 2/2", "MC 3/2 min 2", "PKG 7/4"}));
}

TEST(TopologyXml, Gb10TwoL3NoSmt) {
  const std::string path = fixture("nvidia-dgx-spark-gb10_1numa_20pu.v2.xml");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(t.packages, 1u);
  EXPECT_EQ(t.numa_nodes.size(), 1u);
  EXPECT_EQ(t.cores, 20u);
  EXPECT_EQ(t.pus, 20u);
  EXPECT_FALSE(t.smt);
  ASSERT_EQ(t.llcs.size(), 2u);
  EXPECT_EQ(format_cpulist(t.llcs[0].cpus), "0-9");
  EXPECT_EQ(t.llcs[0].size_bytes, 8ull << 20);
  EXPECT_EQ(t.llcs[1].size_bytes, 16ull << 20);
  EXPECT_TRUE(t.distances.empty());  // one node: hwloc records no matrix
  EXPECT_EQ(domains(t), (Strings{"MC 10/10", "PKG 20/2"}));
}

TEST(TopologyXml, XmlVersion3IsRefusedNamingTheFile) {
  const std::string path = fixture("nvidia-dgx-spark-gb10_1numa_20pu.v3.xml");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  try {
    load_xml(path);
    FAIL() << "no TopologyError";
  } catch (const TopologyError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ": hwloc cannot load it: ", 0), 0u) << what;
    EXPECT_NE(what.find("XML version 3.0"), std::string::npos) << what;
  }
}

TEST(TopologyXml, AMissingFileIsRefusedNamingThePath) {
  const std::string path = "/nonexistent/schedrig/no-such-topology.xml";
  try {
    load_xml(path);
    FAIL() << "no TopologyError";
  } catch (const TopologyError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot read it: No such file or directory");
  }
}

TEST(TopologyXml, AFileThatIsNoTopologyIsRefused) {
  const std::string path = fixture("../README.md");
  SCHEDRIG_REQUIRE_FIXTURE(path);
  try {
    load_xml(path);
    FAIL() << "no TopologyError";
  } catch (const TopologyError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ": hwloc cannot load it: ", 0), 0u) << what;
    EXPECT_NE(what.find("not an hwloc XML topology"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace schedrig::topology
