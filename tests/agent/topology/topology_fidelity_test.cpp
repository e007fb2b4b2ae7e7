// Topology fidelity on real machines: one real export from hwloc's own test
// data per rule of how hwloc's objects map onto the kernel's masks, read in
// place from ../shared/fixtures/topologies-hwloc (each SOURCE note says what
// it should show). Golden domains and placements; the expectations come
// from the kernel's rules (arch/x86/kernel/smpboot.c, kernel/sched/topology.c),
// not from schedrig's output.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "agent/placement/placement.h"
#include "agent/topology/topology.h"
#include "common/cpulist.h"
#include "tests/support/fixtures.h"
#include "tests/support/placement_counts.h"

namespace schedrig::topology {
namespace {

using Strings = std::vector<std::string>;
using placement::resolve_placement;

std::string fixture(const std::string& name) {
  return testing::fixture_path("topologies-hwloc/" + name).string();
}

// Loads topologies-hwloc/NAME into `var`; skips (fails under CI) without it.
#define LOAD_FIXTURE(var, name)                                                   \
  SCHEDRIG_REQUIRE_FIXTURE_FILE(testing::fixture_path("topologies-hwloc/" name)); \
  const Topology var = load_topology({Source::Kind::kXml, fixture(name)})

// "NAME span/groups #domains", " min N" where spans differ, " @D" for NUMA.
Strings domains(const Topology& t) {
  Strings out;
  for (const SchedDomainLevel& l : t.sched_domains) {
    std::string s = fmt::format("{} {}/{} #{}", l.name, l.span, l.groups, l.domains);
    if (l.min_span != l.span) s += fmt::format(" min {}", l.min_span);
    if (l.distance != 0) s += fmt::format(" @{}", l.distance);
    out.push_back(s);
  }
  return out;
}

const SchedDomainLevel& level(const Topology& t, const std::string& name) {
  const auto it = std::find_if(t.sched_domains.begin(), t.sched_domains.end(),
                               [&](const SchedDomainLevel& l) { return l.name == name; });
  if (it == t.sched_domains.end()) throw std::runtime_error("no level " + name);
  return *it;
}

using testing::node_sets;
using testing::per_set;

std::string cpus(const std::string& policy, const Topology& t) {
  return testing::placed_cpus(policy, t);
}

std::string placement_error(const std::string& policy, const Topology& t) {
  try {
    resolve_placement(policy, t);
  } catch (const placement::PlacementError& e) {
    return e.what();
  }
  return "no error for " + policy;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// 1. 16 packages in 4 NUMA nodes (Dunnington: 6 cores, L2 pairs, one L3 per
// package): spread and split go node by node first.
TEST(TopologyFidelity, SixteenPackagesInFourNodesSpreadByNodeFirst) {
  LOAD_FIXTURE(t, "sysfs__96em64t-4no4pa3ca2co.xml");
  EXPECT_EQ(t.packages, 16u);
  ASSERT_EQ(t.numa_nodes.size(), 4u);
  for (const NumaNode& n : t.numa_nodes) EXPECT_EQ(n.cpus.size(), 24u);
  EXPECT_EQ(t.arch, "x86");  // no uname in the dump: inferred from "Genuine Intel(R) CPU"

  const std::vector<int> spread4 = resolve_placement("spread:4", t).cpus;
  EXPECT_EQ(per_set(spread4, node_sets(t)), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(format_cpulist(spread4), "0,24,48,72");
  const placement::Placement split2 = resolve_placement("split:2", t);
  EXPECT_EQ(per_set(split2.message_cpus, node_sets(t)), (std::vector<int>{1, 1, 0, 0}));
  EXPECT_EQ(split2.worker_cpus.size(), 94u);
  // Then packages inside each node: 8 PUs, two per node on two packages;
  // 16 PUs, one per package.
  const std::vector<int> spread8 = resolve_placement("spread:8", t).cpus;
  EXPECT_EQ(per_set(spread8, node_sets(t)), (std::vector<int>{2, 2, 2, 2}));
  const std::vector<int> spread8_packages = per_set(spread8, t.package_cpus);
  EXPECT_EQ(std::count(spread8_packages.begin(), spread8_packages.end(), 1), 8);
  EXPECT_EQ(per_set(resolve_placement("spread:16", t).cpus, t.package_cpus),
            std::vector<int>(16, 1));
}

// 2. x86 CLS from L2 sharing: an Alder/Raptor Lake-like hybrid part (6
// P-cores with 2 threads, 2 quads of E-cores each sharing an L2), and the
// Dunnington L2 pairs under a shared L3.
TEST(TopologyFidelity, X86ClustersComeFromL2Sharing) {
  LOAD_FIXTURE(hybrid, "sysfs__20em64t-hybrid-1p6c2t+2ca4co1t.xml");
  EXPECT_EQ(hybrid.arch, "x86_64");
  EXPECT_EQ(hybrid.pus, 20u);
  EXPECT_EQ(hybrid.cores, 14u);
  ASSERT_EQ(hybrid.clusters.size(), 2u);
  EXPECT_EQ(format_cpulist(hybrid.clusters[0]), "12-15");
  EXPECT_EQ(format_cpulist(hybrid.clusters[1]), "16-19");
  // SMT on the 6 P-cores, CLS on the 2 E-core quads, MC = the L3: 6 P-core
  // groups and 2 quad groups.
  EXPECT_EQ(domains(hybrid), (Strings{"SMT 2/2 #6", "CLS 4/4 #2", "MC 20/8 #1"}));
  EXPECT_TRUE(has(level(hybrid, "CLS").rule, "5.16")) << level(hybrid, "CLS").rule;
  EXPECT_TRUE(has(level(hybrid, "CLS").rule, "L2")) << level(hybrid, "CLS").rule;
  EXPECT_EQ(cpus("compact:8", hybrid), "0,2,4,6,8,10,12-13");  // a thread per core first
  EXPECT_EQ(cpus("compact:15", hybrid), "0-2,4,6,8,10,12-19");

  LOAD_FIXTURE(pairs, "sysfs__96em64t-4no4pa3ca2co.xml");
  EXPECT_EQ(pairs.clusters.size(), 48u);
  EXPECT_EQ(format_cpulist(pairs.clusters[0]), "0,4");
  EXPECT_EQ(domains(pairs),
            (Strings{"CLS 2/2 #48", "MC 6/3 #16", "PKG 24/4 #4", "NUMA 96/4 #1 @26"}));
}

// 3. AMD Bulldozer compute units: hwloc shows two Cores, the kernel's
// match_smt pairs them by cu_id (thread_siblings_list 0-1).
TEST(TopologyFidelity, BulldozerComputeUnitsAreSmtSiblings) {
  LOAD_FIXTURE(t, "sysfs__64amd64-4s2n4ca2co.xml");
  EXPECT_EQ(t.cores, 64u);  // hwloc's Core objects
  ASSERT_EQ(t.core_cpus.size(), 32u);
  EXPECT_EQ(t.core_cpus[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(t.core_cpus[31], (std::vector<int>{62, 63}));
  EXPECT_TRUE(t.smt);
  EXPECT_TRUE(t.compute_units);
  EXPECT_TRUE(t.clusters.empty());  // the unit's L2 holds one kernel core
  // Two nodes per package, each node one L3: NODE repeats MC and goes. The
  // SLIT is asymmetric (Magny-Cours-style links): 40 to 56 PUs within 16.
  EXPECT_EQ(domains(t),
            (Strings{"SMT 2/2 #32", "MC 8/4 #8", "NUMA 56/7 #8 min 40 @16", "NUMA 64/3 #1 @22"}));
  EXPECT_TRUE(has(level(t, "SMT").rule, "compute unit")) << level(t, "SMT").rule;
  // Placements see the kernel's cores: a PU per compute unit first.
  EXPECT_EQ(cpus("compact:4", t), "0,2,4,6");
  EXPECT_EQ(cpus("compact:5", t), "0-2,4,6");
  EXPECT_EQ(cpus("spread:4", t), "0,16,32,48");  // one per package (2 nodes in each)
  EXPECT_EQ(cpus("spread:8", t), "0,8,16,24,32,40,48,56");
}

// 4. KNL SNC4 with MCDRAM in hybrid mode: the MCDRAM cache (L3Cache of
// subtype MemorySideCache) is never the LLC, the MCDRAM nodes are memory.
TEST(TopologyFidelity, KnlMemorySideCacheIsNeverTheLlc) {
  LOAD_FIXTURE(t, "sysfs__v2x_64intel64-fakeKNL-SNC4-hybrid.xml");
  ASSERT_EQ(t.llcs.size(), 8u);
  for (const Llc& l : t.llcs) {
    EXPECT_EQ(l.level, 2u);  // the tile's L2
    EXPECT_EQ(l.shared_by, 2u);
    EXPECT_EQ(l.cpus.size(), 8u);
  }
  ASSERT_EQ(t.numa_nodes.size(), 8u);
  for (unsigned i = 0; i < 8; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(t.numa_nodes[i].cpus.size(), i < 4 ? 16u : 0u);  // 4-7: MCDRAM
  }
  // SMT 4, the tile's L2 (the LLC on x86, so MC), the SNC node (NODE: four
  // nodes in the package), then the machine.
  EXPECT_EQ(domains(t), (Strings{"SMT 4/4 #16", "MC 8/2 #8", "NODE 16/2 #4", "NUMA 64/4 #1 @20"}));
  EXPECT_TRUE(has(level(t, "MC").rule, "CLS")) << level(t, "MC").rule;
  EXPECT_TRUE(has(level(t, "NODE").rule, "x86_has_numa_in_package")) << level(t, "NODE").rule;
  EXPECT_EQ(cpus("spread:4", t), "0,4,8,12");  // one per SNC node
  EXPECT_TRUE(has(placement_error("node:5", t), "NUMA node 5 has no CPUs (memory only)"));
}

// 5. CPUs whose NUMA node is offline still get their MC over their LLC.
TEST(TopologyFidelity, CpusWithoutANodeKeepTheirMc) {
  LOAD_FIXTURE(t, "sysfs__offline-cpu0-node0.xml");
  EXPECT_EQ(format_cpulist(t.online_cpus), "4-20");
  ASSERT_EQ(t.numa_nodes.size(), 1u);
  EXPECT_EQ(t.numa_nodes[0].os_index, 1u);
  EXPECT_EQ(format_cpulist(t.numa_nodes[0].cpus), "5,7,9,11,13,15,17,19");
  ASSERT_EQ(t.package_cpus.size(), 2u);
  EXPECT_EQ(format_cpulist(t.package_cpus[0]), "4,6,8,10,12,14,16,18,20");
  // Package 0's 9 PUs: MC over their L3; package 1's 8: MC, and their node
  // (the same 8) goes as a repeat.
  EXPECT_EQ(domains(t), (Strings{"MC 9/9 #2 min 8"}));
  std::ostringstream view;
  print_topology(t, view);
  EXPECT_TRUE(has(view.str(), "\nNo NUMA node: cpus 4,6,8,10,12,14,16,18,20 (")) << view.str();
  EXPECT_EQ(cpus("spread:2", t), "4-5");
  EXPECT_TRUE(has(placement_error("node:0", t), "no NUMA node 0"));
}

// 6. Cluster-on-Die nodes whose cpusets the export made identical: no node
// with CPUs is called memory-only, a warning names them, distance levels
// stay.
TEST(TopologyFidelity, IdenticalNodeCpusetsAreAnAmbiguousExport) {
  LOAD_FIXTURE(t, "v2x_tests_hwloc_xml__28intel64-2p2g7c-CoD.nogroups.v1tov2.xml");
  ASSERT_EQ(t.numa_nodes.size(), 4u);
  EXPECT_EQ(format_cpulist(t.numa_nodes[0].cpus), "0-13");
  EXPECT_EQ(format_cpulist(t.numa_nodes[1].cpus), "0-13");
  EXPECT_EQ(format_cpulist(t.numa_nodes[2].cpus), "14-27");
  EXPECT_EQ(format_cpulist(t.numa_nodes[3].cpus), "14-27");
  ASSERT_EQ(t.warnings.size(), 2u);
  EXPECT_TRUE(has(t.warnings[0], "ambiguous export: NUMA nodes 0 and 1 both list cpus 0-13"))
      << t.warnings[0];
  EXPECT_TRUE(has(t.warnings[1], "NUMA nodes 2 and 3 both list cpus 14-27")) << t.warnings[1];
  // The node level is unknown; the 21 (the package) and 31 levels stand.
  EXPECT_EQ(domains(t), (Strings{"NUMA 14/14 #2 @21", "NUMA 28/2 #1 @31"}));
  EXPECT_EQ(cpus("node:1", t), "0-13");
  EXPECT_EQ(cpus("spread:2", t), "0,14");
}

// 7. An export made inside a cgroup: allowed_cpuset 0x3f.
TEST(TopologyFidelity, RestrictedExportHonoursItsAllowedCpuset) {
  LOAD_FIXTURE(t, "sysfsD__32amd64-4s2n4c-cgroup2.xml");
  EXPECT_EQ(format_cpulist(t.online_cpus), "0-31");
  EXPECT_EQ(format_cpulist(t.allowed_cpus), "0-5");
  EXPECT_EQ(format_cpulist(t.disallowed_pus), "6-31");
  EXPECT_TRUE(t.offline_pus.empty());  // disallowed, not offline
  // The machine's domains, counted for PUs 0-5 (two L3s, two nodes).
  EXPECT_EQ(domains(t), (Strings{"MC 4/4 #2", "NUMA 20/5 #2 @16", "NUMA 32/2 #1 @22"}));
  EXPECT_EQ(cpus("all", t), "0-5");
  EXPECT_EQ(cpus("spread:4", t), "0-1,4-5");
  EXPECT_EQ(format_cpulist(resolve_placement("split:2", t).message_cpus), "0,4");
  EXPECT_EQ(cpus("package:0", t), "0-5");
  EXPECT_EQ(
      placement_error("package:1", t)
          .rfind("placement 'package:1': none of package 1's PUs (8-15) is allowed here (allowed "
                 "cpulist '0-5')",
                 0),
      0u);
  EXPECT_TRUE(has(placement_error("spread:7", t), "more than the 6 PUs allowed"));
  EXPECT_TRUE(has(placement_error("cpulist:6", t), "not in the allowed cpulist '0-5'"));
}

// What the host resolves from the agent's Topology message is what the agent
// resolves: every new field travels.
TEST(TopologyFidelity, EveryExportRoundTripsThroughTheWireMessage) {
  for (const char* name :
       {"sysfs__20em64t-hybrid-1p6c2t+2ca4co1t.xml", "sysfs__64amd64-4s2n4ca2co.xml",
        "v2x_tests_hwloc_xml__28intel64-2p2g7c-CoD.nogroups.v1tov2.xml",
        "sysfsD__32amd64-4s2n4c-cgroup2.xml"}) {
    SCOPED_TRACE(name);
    SCHEDRIG_REQUIRE_FIXTURE_FILE(testing::fixture_path(std::string("topologies-hwloc/") + name));
    const Topology t = load_topology({Source::Kind::kXml, fixture(name)});
    schedrig::v1::Topology msg;
    topology_to_proto(t, &msg);
    const Topology back = topology_from_proto(msg);
    EXPECT_EQ(topology_to_json(back).dump(), topology_to_json(t).dump());
    for (const char* policy : {"spread:4", "compact:5", "split:2", "all"})
      EXPECT_EQ(resolve_placement(policy, back).cpus, resolve_placement(policy, t).cpus) << policy;
  }
}

}  // namespace
}  // namespace schedrig::topology
