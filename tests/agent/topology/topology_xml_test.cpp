// load_topology on real hwloc XML files from ../shared/fixtures/topologies
// (see its README.md for what each machine holds).
#include <algorithm>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "agent/topology/topology.h"
#include "common/cpulist.h"

namespace schedrig::topology {
namespace {

std::string fixture(const std::string& name) {
  return std::string(SCHEDRIG_FIXTURES) + "/topologies/" + name;
}

#define SKIP_IF_ABSENT(path) \
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "fixture not found: " << (path)

Topology load_xml(const std::string& path) { return load_topology({Source::Kind::kXml, path}); }

bool all_llcs(const Topology& t, unsigned level, unsigned shared_by) {
  return std::all_of(t.llcs.begin(), t.llcs.end(), [&](const Llc& llc) {
    return llc.level == level && llc.shared_by == shared_by;
  });
}

TEST(TopologyXml, Epyc7742Nps4) {
  const std::string path = fixture("amd-epyc7742-2s-smt_nps4_256pu.v2.xml");
  SKIP_IF_ABSENT(path);
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
}

TEST(TopologyXml, Epyc7402Nps1ThreeCoreCcx) {
  const std::string path = fixture("amd-epyc7402-2s-smt_nps1_96pu.v2.xml");
  SKIP_IF_ABSENT(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(t.packages, 2u);
  EXPECT_EQ(t.numa_nodes.size(), 2u);
  EXPECT_EQ(t.cores, 48u);
  EXPECT_EQ(t.pus, 96u);
  ASSERT_EQ(t.llcs.size(), 16u);
  EXPECT_TRUE(all_llcs(t, 3, 3));
  EXPECT_EQ(format_cpulist(t.llcs[0].cpus), "0-2,48-50");
}

// Xeon Max flat mode: HBM nodes 8-15 have no CPUs (hwloc gives them their DDR
// sibling's cpuset; Linux gives them an empty cpulist).
TEST(TopologyXml, XeonMaxHbmNodesAreMemoryOnly) {
  const std::string path = fixture("intel-xeonmax9462-2s-snc4-hbm-flat_16numa_128pu.v2.xml");
  SKIP_IF_ABSENT(path);
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
}

// SNC2 interleaves CPUs between nodes; Optane memory mode puts a MemCache in
// front of every node, which is no CPU cache.
TEST(TopologyXml, XeonGold6230Snc2WithMemCache) {
  const std::string path = fixture("intel-xeon-gold6230-2s-snc2-smt_80pu_optane-memcache.v2.xml");
  SKIP_IF_ABSENT(path);
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
}

TEST(TopologyXml, KunpengDerivedFourL3NoSmt) {
  const std::string path =
      fixture("huawei-kunpeng920-2s_128pu_cluster4.DERIVED-by-hwloc-2.9.0.v2.xml");
  SKIP_IF_ABSENT(path);
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
}

TEST(TopologyXml, ThunderX2V1Smt4) {
  const std::string path = fixture("cavium-thunderx2-2s-smt4_256pu.v1.xml");
  SKIP_IF_ABSENT(path);
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
  SKIP_IF_ABSENT(path);
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
  SKIP_IF_ABSENT(path);
  const Topology t = load_xml(path);
  EXPECT_EQ(format_cpulist(t.online_cpus), "0-1,3-4,6,12,15");
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
}

TEST(TopologyXml, Gb10TwoL3NoSmt) {
  const std::string path = fixture("nvidia-dgx-spark-gb10_1numa_20pu.v2.xml");
  SKIP_IF_ABSENT(path);
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
}

TEST(TopologyXml, XmlVersion3IsRefusedNamingTheFile) {
  const std::string path = fixture("nvidia-dgx-spark-gb10_1numa_20pu.v3.xml");
  SKIP_IF_ABSENT(path);
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
    EXPECT_EQ(std::string(e.what()), path + ": hwloc cannot load it: No such file or directory");
  }
}

TEST(TopologyXml, AFileThatIsNoTopologyIsRefused) {
  const std::string path = fixture("../README.md");
  SKIP_IF_ABSENT(path);
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
