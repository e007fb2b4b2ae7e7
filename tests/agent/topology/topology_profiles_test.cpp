// Golden tests over every profile in hwloc-profiles/: the facts each
// SOURCE.md states, and the committed summary (the human view) byte for byte.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "agent/topology/topology.h"
#include "common/cpulist.h"
#include "tests/support/hwloc_profile.h"

namespace schedrig::topology {
namespace {

const std::filesystem::path kProfiles = testing::hwloc_profiles_dir();

Topology profile(const std::string& name) { return testing::hwloc_profile(name); }

std::vector<std::string> profile_names() {
  std::set<std::string> names;  // sorted
  for (const auto& entry : std::filesystem::directory_iterator(kProfiles))
    if (entry.path().extension() == ".xml") names.insert(entry.path().stem().string());
  return {names.begin(), names.end()};
}

std::vector<std::string> domain_spans(const Topology& t) {
  std::vector<std::string> out;
  for (const SchedDomainLevel& l : t.sched_domains) {
    std::string s = fmt::format("{} {}/{}", l.name, l.span, l.groups);
    if (l.distance != 0) s += fmt::format(" @{}", l.distance);
    out.push_back(s);
  }
  return out;
}

using Strings = std::vector<std::string>;
using Matrix = std::vector<std::vector<unsigned>>;

// The facts each profile's SOURCE.md gives, checked independently of the
// golden summary.
struct Expected {
  std::string name;
  unsigned packages, nodes, llcs, llc_level, llc_shared_by, cores, pus;
  bool smt;
  std::string node0_cpus, llc0_cpus, core0_cpus;
  Strings domains;
};

const std::vector<Expected>& expected() {
  // clang-format off
  static const std::vector<Expected> all = {
      {"ampere-altra-2s-q80", 2, 2, 160, 2, 1, 160, 160, false, "0-79", "0", "0",
       {"PKG 80/80", "NUMA 160/2 @20"}},
      {"aws-m6a.24xlarge-epyc7r13", 2, 2, 6, 3, 8, 48, 96, true, "0-23,48-71", "0-7,48-55", "0,48",
       {"SMT 2/2", "MC 16/8", "PKG 48/3", "NUMA 96/2 @20"}},
      {"amd-epyc9654-2s-nps1", 2, 2, 24, 3, 8, 192, 384, true, "0-95,192-287", "0-7,192-199",
       "0,192", {"SMT 2/2", "MC 16/8", "PKG 192/12", "NUMA 384/2 @32"}},
      {"amd-epyc9654-2s-nps4", 2, 8, 24, 3, 8, 192, 384, true, "0-23,192-215", "0-7,192-199",
       "0,192", {"SMT 2/2", "MC 16/8", "NODE 48/3", "NUMA 192/4 @12", "NUMA 384/2 @32"}},
      {"intel-xeon8480-2s-snc4", 2, 8, 2, 3, 56, 112, 224, true, "0-13,112-125", "0-55,112-167",
       "0,112", {"SMT 2/2", "MC 28/14", "NUMA 112/4 @12", "NUMA 224/2 @21"}},
      {"aws-graviton3-64c", 1, 1, 1, 3, 64, 64, 64, false, "0-63", "0-63", "0", {"MC 64/64"}},
      {"intel-i7-4770-1s", 1, 1, 1, 3, 4, 4, 8, true, "0-7", "0-7", "0,4", {"SMT 2/2", "MC 8/4"}},
      {"edge-smt4-thunderx2-2s", 2, 2, 2, 3, 32, 64, 256, true, "0-127", "0-127", "0,32,64,96",
       {"SMT 4/4", "MC 128/32", "NUMA 256/2 @20"}},
      {"edge-offline-smt-off-i7-4770", 1, 1, 1, 3, 4, 4, 4, false, "0-3", "0-3", "0", {"MC 4/4"}},
      {"edge-memory-only-cxl-node", 1, 2, 1, 3, 16, 16, 32, true, "0-31", "0-31", "0,16",
       {"SMT 2/2", "MC 32/16"}},
  };
  // clang-format on
  return all;
}

TEST(TopologyProfiles, EveryProfileHasSourceSummaryAndExpectations) {
  const Strings names = profile_names();
  ASSERT_GE(names.size(), 10u) << "profiles in " << kProfiles;
  std::set<std::string> known;
  for (const Expected& e : expected()) known.insert(e.name);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(std::filesystem::exists(kProfiles / (name + ".SOURCE.md")));
    EXPECT_TRUE(std::filesystem::exists(kProfiles / (name + ".summary.txt")));
    EXPECT_EQ(known.count(name), 1u) << "add the profile's facts to expected()";
  }
}

TEST(TopologyProfiles, FactsFromEachSource) {
  for (const Expected& e : expected()) {
    SCOPED_TRACE(e.name);
    const Topology t = profile(e.name);
    EXPECT_EQ(t.packages, e.packages);
    EXPECT_EQ(t.package_cpus.size(), e.packages);
    EXPECT_EQ(t.numa_nodes.size(), e.nodes);
    EXPECT_EQ(t.llcs.size(), e.llcs);
    for (const Llc& llc : t.llcs) {
      EXPECT_EQ(llc.level, e.llc_level);
      EXPECT_EQ(llc.shared_by, e.llc_shared_by);
    }
    EXPECT_EQ(t.cores, e.cores);
    EXPECT_EQ(t.core_cpus.size(), e.cores);
    EXPECT_EQ(t.pus, e.pus);
    EXPECT_EQ(t.smt, e.smt);
    EXPECT_EQ(format_cpulist(t.numa_nodes[0].cpus), e.node0_cpus);
    EXPECT_EQ(format_cpulist(t.llcs[0].cpus), e.llc0_cpus);
    EXPECT_EQ(format_cpulist(t.core_cpus[0]), e.core0_cpus);
    EXPECT_EQ(domain_spans(t), e.domains);
    EXPECT_EQ(t.allowed_cpus, t.online_cpus);
    EXPECT_TRUE(t.disallowed_pus.empty());
    // generate.sh records each machine's architecture: its domain rules.
    EXPECT_TRUE(t.arch == "x86_64" || t.arch == "aarch64") << t.arch;
    for (const SchedDomainLevel& l : t.sched_domains) EXPECT_FALSE(l.rule.empty()) << l.name;
  }
}

TEST(TopologyProfiles, AnnotatedDistances) {
  EXPECT_EQ(profile("amd-epyc9654-2s-nps1").distances, (Matrix{{10, 32}, {32, 10}}));
  const Topology nps4 = profile("amd-epyc9654-2s-nps4");
  EXPECT_EQ(nps4.distances_source, "hwloc");
  ASSERT_EQ(nps4.distances.size(), 8u);
  EXPECT_EQ(nps4.distances[0], (std::vector<unsigned>{10, 12, 12, 12, 32, 32, 32, 32}));
  EXPECT_EQ(nps4.distances[6], (std::vector<unsigned>{32, 32, 32, 32, 12, 12, 10, 12}));
  const Topology snc4 = profile("intel-xeon8480-2s-snc4");
  ASSERT_EQ(snc4.distances.size(), 8u);
  EXPECT_EQ(snc4.distances[3], (std::vector<unsigned>{12, 12, 12, 10, 21, 21, 21, 21}));
  EXPECT_EQ(profile("edge-smt4-thunderx2-2s").distances, (Matrix{{10, 20}, {20, 10}}));
  // No SLIT is published for these: unknown, not invented.
  for (const char* name : {"ampere-altra-2s-q80", "aws-m6a.24xlarge-epyc7r13",
                           "edge-memory-only-cxl-node", "aws-graviton3-64c"}) {
    SCOPED_TRACE(name);
    const Topology t = profile(name);
    EXPECT_TRUE(t.distances.empty());
    EXPECT_EQ(t.distances_source, "");
  }
}

TEST(TopologyProfiles, EdgeOfflinePus) {
  const Topology t = profile("edge-offline-smt-off-i7-4770");
  EXPECT_EQ(format_cpulist(t.online_cpus), "0-3");
  EXPECT_EQ(format_cpulist(t.offline_pus), "4-7");
}

TEST(TopologyProfiles, EdgeMemoryOnlyNode) {
  const Topology t = profile("edge-memory-only-cxl-node");
  ASSERT_EQ(t.numa_nodes.size(), 2u);
  EXPECT_EQ(t.numa_nodes[1].os_index, 1u);
  EXPECT_TRUE(t.numa_nodes[1].cpus.empty());  // hwloc's cpuset is every PU; Linux's is none
  EXPECT_EQ(t.numa_nodes[1].memory_bytes, 128ull << 30);
  EXPECT_EQ(format_cpulist(t.numa_nodes[0].cpus), "0-31");
}

TEST(TopologyProfiles, AltraLlcIsThePrivateL2) {
  const Topology t = profile("ampere-altra-2s-q80");
  EXPECT_EQ(t.llcs[159].cpus, std::vector<int>{159});
  EXPECT_EQ(t.llcs[0].size_bytes, 1ull << 20);
  EXPECT_EQ(format_cpulist(t.package_cpus[1]), "80-159");
}

// The committed golden summary is what the agent prints today.
TEST(TopologyProfiles, HumanViewMatchesTheGoldenSummary) {
  for (const std::string& name : profile_names()) {
    SCOPED_TRACE(name);
    std::ifstream in(kProfiles / (name + ".summary.txt"));
    ASSERT_TRUE(in) << "no summary for " << name;
    std::stringstream golden;
    golden << in.rdbuf();
    std::ostringstream now;
    print_topology(profile(name), now);
    EXPECT_EQ(now.str(), golden.str()) << "regenerate with hwloc-profiles/generate.sh "
                                          "build/bin/schedrig-agent if the change is intended";
  }
}

}  // namespace
}  // namespace schedrig::topology
