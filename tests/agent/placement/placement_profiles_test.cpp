// Placement policies on every profile in hwloc-profiles/ and on the live
// machine: the examples, determinism, live == XML.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "agent/placement/placement.h"
#include "common/cpulist.h"
#include "tests/support/placement_counts.h"
#include "tests/support/run_command.h"

namespace schedrig::placement {
namespace {

const std::filesystem::path kProfiles =
    std::filesystem::path(SCHEDRIG_SOURCE_DIR) / "hwloc-profiles";

topology::Topology profile(const std::string& name) {
  return topology::load_topology(
      {topology::Source::Kind::kXml, (kProfiles / (name + ".xml")).string()});
}

using testing::llc_sets;
using testing::node_sets;
using testing::per_set;

std::string placed(const std::string& policy, const topology::Topology& t) {
  return testing::placed_cpus(policy, t);
}

int sets_used(const std::vector<int>& counts) {
  return static_cast<int>(std::count_if(counts.begin(), counts.end(), [](int c) { return c > 0; }));
}

// spread:4 on a two-socket profile: two PUs per package, on 4 LLCs.
TEST(PlacementProfiles, Spread4OnTwoSocketsIsTwoPerPackageOnDifferentLlcs) {
  for (const char* name :
       {"ampere-altra-2s-q80", "aws-m6a.24xlarge-epyc7r13", "amd-epyc9654-2s-nps1",
        "amd-epyc9654-2s-nps4", "intel-xeon8480-2s-snc4"}) {
    SCOPED_TRACE(name);
    const topology::Topology t = profile(name);
    const std::vector<int> p = resolve_placement("spread:4", t).cpus;
    ASSERT_EQ(p.size(), 4u);
    EXPECT_EQ(per_set(p, t.package_cpus), (std::vector<int>{2, 2}));
    if (t.llcs.size() >= 4) {
      EXPECT_EQ(sets_used(per_set(p, llc_sets(t))), 4);
    }
  }
  // The exact lists (golden).
  EXPECT_EQ(placed("spread:4", profile("ampere-altra-2s-q80")), "0-1,80-81");
  EXPECT_EQ(placed("spread:4", profile("amd-epyc9654-2s-nps1")), "0,8,96,104");
  EXPECT_EQ(placed("spread:4", profile("amd-epyc9654-2s-nps4")), "0,24,96,120");
  EXPECT_EQ(placed("spread:4", profile("intel-xeon8480-2s-snc4")), "0,14,56,70");
  EXPECT_EQ(placed("spread:4", profile("aws-m6a.24xlarge-epyc7r13")), "0,8,24,32");
}

// split:K on multi-node profiles: one message PU per node first.
TEST(PlacementProfiles, SplitPutsOneMessagePuPerNode) {
  const topology::Topology m6a = profile("aws-m6a.24xlarge-epyc7r13");
  const Placement two = resolve_placement("split:2", m6a);
  EXPECT_EQ(per_set(two.message_cpus, node_sets(m6a)), (std::vector<int>{1, 1}));
  EXPECT_EQ(format_cpulist(two.message_cpus), "0,24");
  EXPECT_EQ(two.worker_cpus.size(), 94u);

  const topology::Topology nps4 = profile("amd-epyc9654-2s-nps4");
  const Placement eight = resolve_placement("split:8", nps4);
  EXPECT_EQ(per_set(eight.message_cpus, node_sets(nps4)), std::vector<int>(8, 1));
  EXPECT_EQ(format_cpulist(eight.message_cpus), "0,24,48,72,96,120,144,168");

  const topology::Topology snc4 = profile("intel-xeon8480-2s-snc4");
  EXPECT_EQ(per_set(resolve_placement("split:8", snc4).message_cpus, node_sets(snc4)),
            std::vector<int>(8, 1));
  // Beyond one per node, one per LLC: 16 message PUs on 16 of the 24 CCDs.
  const Placement sixteen = resolve_placement("split:16", nps4);
  EXPECT_EQ(sets_used(per_set(sixteen.message_cpus, llc_sets(nps4))), 16);
}

// compact fills one LLC; one PU per core before SMT siblings.
TEST(PlacementProfiles, CompactFillsAnLlcOneThreadPerCoreFirst) {
  const topology::Topology nps1 = profile("amd-epyc9654-2s-nps1");
  EXPECT_EQ(placed("compact:8", nps1), "0-7");           // one CCD, first threads
  EXPECT_EQ(placed("compact:16", nps1), "0-7,192-199");  // the CCD with siblings
  EXPECT_EQ(placed("compact:17", nps1), "0-8,192-199");  // then the next CCD
  const topology::Topology smt4 = profile("edge-smt4-thunderx2-2s");
  EXPECT_EQ(placed("compact:34", smt4), "0-33");  // 32 first threads, then 32, 33
  EXPECT_EQ(placed("compact:128", smt4), "0-127");
  EXPECT_EQ(placed("compact:129", smt4), "0-128");
  const topology::Topology altra = profile("ampere-altra-2s-q80");
  EXPECT_EQ(placed("compact:3", altra), "0-2");  // private L2s: one core per LLC
}

TEST(PlacementProfiles, NodePackageLlcOnRealNumbering) {
  const topology::Topology snc4 = profile("intel-xeon8480-2s-snc4");
  EXPECT_EQ(placed("node:5", snc4), "70-83,182-195");
  EXPECT_EQ(placed("package:1", snc4), "56-111,168-223");
  EXPECT_EQ(placed("llc:1", snc4), "56-111,168-223");
  const topology::Topology m6a = profile("aws-m6a.24xlarge-epyc7r13");
  EXPECT_EQ(placed("llc:5", m6a), "40-47,88-95");
  EXPECT_EQ(placed("llc:159", profile("ampere-altra-2s-q80")), "159");
}

TEST(PlacementProfiles, EdgeOfflinePusAreNeverPlaced) {
  const topology::Topology t = profile("edge-offline-smt-off-i7-4770");
  EXPECT_EQ(placed("all", t), "0-3");
  EXPECT_EQ(placed("compact:4", t), "0-3");
  std::string what;
  try {
    resolve_placement("spread:5", t);
  } catch (const PlacementError& e) {
    what = e.what();
  }
  EXPECT_EQ(what.rfind("placement 'spread:5': K = 5 is more than the 4 PUs allowed on this machine "
                       "(cpulist '0-3')",
                       0),
            0u)
      << what;
  EXPECT_THROW(resolve_placement("cpulist:4", t), PlacementError);  // offline
}

TEST(PlacementProfiles, EdgeMemoryOnlyNodeCannotHostAWorkload) {
  const topology::Topology t = profile("edge-memory-only-cxl-node");
  EXPECT_EQ(placed("node:0", t), "0-31");
  std::string what;
  try {
    resolve_placement("node:1", t);
  } catch (const PlacementError& e) {
    what = e.what();
  }
  EXPECT_EQ(what.rfind("placement 'node:1': NUMA node 1 has no CPUs (memory only); nodes with "
                       "CPUs: 0",
                       0),
            0u)
      << what;
  // split:2 on one CPU node: both message PUs in node 0, on different cores.
  EXPECT_EQ(format_cpulist(resolve_placement("split:2", t).message_cpus), "0-1");
}

// The same policy on the same XML gives the same cpulists, load after load.
TEST(PlacementProfiles, SamePolicySameXmlSameResult) {
  const std::vector<std::string> policies = {"all",       "node:0",   "package:0", "llc:0",
                                             "compact:3", "spread:3", "split:2",   "cpulist:0-1"};
  for (const auto& entry : std::filesystem::directory_iterator(kProfiles)) {
    if (entry.path().extension() != ".xml") continue;
    SCOPED_TRACE(entry.path().filename().string());
    const topology::Topology a = profile(entry.path().stem().string());
    const topology::Topology b = profile(entry.path().stem().string());
    for (const std::string& policy : policies) {
      const Placement pa = resolve_placement(policy, a);
      const Placement pb = resolve_placement(policy, b);
      EXPECT_EQ(pa.cpus, pb.cpus) << policy;
      EXPECT_EQ(pa.message_cpus, pb.message_cpus) << policy;
      EXPECT_EQ(pa.worker_cpus, pb.worker_cpus) << policy;
    }
  }
}

// Live and XML give the same cpulists: export this machine with lstopo and
// resolve every policy on both.
TEST(PlacementProfiles, LiveAndItsXmlGiveTheSameCpulists) {
  if (testing::run_command("command -v lstopo-no-graphics").exit_code != 0)
    GTEST_SKIP() << "lstopo-no-graphics not installed (Debian package hwloc)";
  const topology::Topology live = topology::load_topology({});
  if (live.allowed_cpus != live.online_cpus)
    GTEST_SKIP() << "this process is restricted (allowed " << format_cpulist(live.allowed_cpus)
                 << "), an XML is not";
  testing::TempDir dir;
  const std::string xml = dir.file("live.xml");
  const auto r = testing::run_command("lstopo-no-graphics --no-io --of xml --force " + xml);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const topology::Topology recorded = topology::load_topology({topology::Source::Kind::kXml, xml});
  const std::size_t k = std::max<std::size_t>(1, live.pus / 2);
  const std::vector<std::string> policies = {"all",
                                             fmt::format("node:{}", live.numa_nodes[0].os_index),
                                             "package:0",
                                             fmt::format("compact:{}", k),
                                             fmt::format("spread:{}", k),
                                             "split:1"};
  for (const std::string& policy : policies) {
    SCOPED_TRACE(policy);
    if (policy == "split:1" && live.pus < 2) continue;
    const Placement a = resolve_placement(policy, live);
    const Placement b = resolve_placement(policy, recorded);
    EXPECT_EQ(a.cpus, b.cpus);
    EXPECT_EQ(a.message_cpus, b.message_cpus);
  }
}

}  // namespace
}  // namespace schedrig::placement
