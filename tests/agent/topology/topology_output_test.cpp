// topology_to_json, topology_to_proto and print_topology.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "agent/topology/topology.h"

namespace schedrig::topology {
namespace {

Topology two_packages() {
  return load_topology({Source::Kind::kSynthetic, "pack:2 numa:1 l3:2 core:4 pu:2"});
}

// A memory-only node and an offline gap, built by hand.
Topology hand_made() {
  Topology t;
  t.packages = 1;
  t.numa_nodes = {{.os_index = 0, .cpus = {0, 1, 2, 3, 8}, .memory_bytes = 3ull << 30},
                  {.os_index = 8, .cpus = {}, .memory_bytes = 16ull << 30}};
  t.llcs = {{.cpus = {0, 1, 2, 3, 8}, .level = 3, .size_bytes = 32ull << 20, .shared_by = 5}};
  t.cores = 5;
  t.pus = 5;
  t.smt = false;
  t.online_cpus = {0, 1, 2, 3, 8};
  t.allowed_cpus = {0, 1};
  t.package_cpus = {{0, 1, 2, 3, 8}};
  t.core_cpus = {{0}, {1}, {2}, {3}, {8}};
  t.offline_pus = {4, 5, 6, 7};
  t.disallowed_pus = {2, 3, 8};
  t.distances = {{10, 17}, {28, 10}};
  t.distances_source = "sysfs";
  t.sched_domains = derive_sched_domains(t);
  return t;
}

TEST(TopologyJson, ShapeAndCpulists) {
  const nlohmann::json j = topology_to_json(two_packages());
  for (const char* key :
       {"arch", "packages", "package_cpus", "numa_nodes", "llcs", "clusters", "cores", "core_cpus",
        "pus", "smt", "compute_units", "online_cpus", "allowed_cpus", "offline_pus",
        "disallowed_pus", "distances", "distances_source", "sched_domains", "warnings"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j.size(), 19u);
  EXPECT_EQ(j["arch"], "");  // a synthetic description names no architecture
  EXPECT_EQ(j["compute_units"], false);
  EXPECT_EQ(j["warnings"], nlohmann::json::array());
  EXPECT_EQ(j["package_cpus"], (nlohmann::json{"0-15", "16-31"}));
  ASSERT_EQ(j["core_cpus"].size(), 16u);
  EXPECT_EQ(j["core_cpus"][3], "6-7");
  EXPECT_EQ(j["clusters"], nlohmann::json::array());
  EXPECT_EQ(j["offline_pus"], "");
  EXPECT_EQ(j["disallowed_pus"], "");
  // Synthetic topologies carry no distances, and live fallbacks never apply.
  EXPECT_EQ(j["distances"], nlohmann::json::array());
  EXPECT_EQ(j["distances_source"], "");
  EXPECT_EQ(j["sched_domains"], (nlohmann::json{{{"name", "SMT"},
                                                 {"span", 2},
                                                 {"min_span", 2},
                                                 {"groups", 2},
                                                 {"domains", 16},
                                                 {"distance", 0},
                                                 {"rule", ""}},
                                                {{"name", "MC"},
                                                 {"span", 8},
                                                 {"min_span", 8},
                                                 {"groups", 4},
                                                 {"domains", 4},
                                                 {"distance", 0},
                                                 {"rule", ""}},
                                                {{"name", "PKG"},
                                                 {"span", 16},
                                                 {"min_span", 16},
                                                 {"groups", 2},
                                                 {"domains", 2},
                                                 {"distance", 0},
                                                 {"rule", ""}},
                                                {{"name", "NUMA"},
                                                 {"span", 32},
                                                 {"min_span", 32},
                                                 {"groups", 2},
                                                 {"domains", 1},
                                                 {"distance", 20},
                                                 {"rule", ""}}}));
  EXPECT_EQ(j["packages"], 2);
  EXPECT_EQ(j["cores"], 16);
  EXPECT_EQ(j["pus"], 32);
  EXPECT_EQ(j["smt"], true);
  EXPECT_EQ(j["online_cpus"], "0-31");
  EXPECT_EQ(j["allowed_cpus"], "0-31");
  ASSERT_EQ(j["numa_nodes"].size(), 2u);
  EXPECT_EQ(j["numa_nodes"][1],
            (nlohmann::json{{"os_index", 1}, {"cpus", "16-31"}, {"memory_bytes", 1ull << 30}}));
  ASSERT_EQ(j["llcs"].size(), 4u);
  EXPECT_EQ(j["llcs"][2]["cpus"], "16-23");
  EXPECT_EQ(j["llcs"][2]["level"], 3);
  EXPECT_EQ(j["llcs"][2]["shared_by"], 4);
  EXPECT_TRUE(j["llcs"][2]["size_bytes"].is_number_unsigned());
}

TEST(TopologyJson, MemoryOnlyNodeHasAnEmptyCpulist) {
  const nlohmann::json j = topology_to_json(hand_made());
  EXPECT_EQ(j["numa_nodes"][0]["cpus"], "0-3,8");
  EXPECT_EQ(j["numa_nodes"][1]["cpus"], "");
  EXPECT_EQ(j["numa_nodes"][1]["memory_bytes"], 16ull << 30);
  EXPECT_EQ(j["allowed_cpus"], "0-1");
  EXPECT_EQ(j["offline_pus"], "4-7");
  EXPECT_EQ(j["disallowed_pus"], "2-3,8");
  // Rows in numa_nodes order, as given (an asymmetric SLIT stays asymmetric).
  EXPECT_EQ(j["distances"], (nlohmann::json{{10, 17}, {28, 10}}));
  EXPECT_EQ(j["distances_source"], "sysfs");
  // One node with CPUs: no NUMA level; MC spans the LLC, PKG (the node) is
  // the same span and is dropped.
  ASSERT_EQ(j["sched_domains"].size(), 1u);
  EXPECT_EQ(j["sched_domains"][0]["name"], "MC");
  EXPECT_EQ(j["sched_domains"][0]["span"], 5);
}

TEST(PuMaps, LlcAndNodeOfEveryPu) {
  const std::vector<int> llc = pu_to_llc(two_packages());
  ASSERT_EQ(llc.size(), 32u);
  EXPECT_EQ(llc[0], 0);
  EXPECT_EQ(llc[9], 1);
  EXPECT_EQ(llc[31], 3);
  const std::vector<int> node = pu_to_node(two_packages());
  ASSERT_EQ(node.size(), 32u);
  EXPECT_EQ(node[15], 0);
  EXPECT_EQ(node[16], 1);
  // Gaps (offline 4-7) are -1; node numbers are OS indexes.
  const Topology t = hand_made();
  EXPECT_EQ(pu_to_node(t), (std::vector<int>{0, 0, 0, 0, -1, -1, -1, -1, 0}));
  EXPECT_EQ(pu_to_llc(t), (std::vector<int>{0, 0, 0, 0, -1, -1, -1, -1, 0}));
  EXPECT_TRUE(pu_to_llc(Topology{}).empty());
}

TEST(TopologyProto, FieldsMatch) {
  schedrig::v1::Topology msg;
  msg.add_llcs();  // stale content is replaced
  topology_to_proto(two_packages(), &msg);
  EXPECT_EQ(msg.packages(), 2u);
  EXPECT_EQ(msg.cores(), 16u);
  EXPECT_EQ(msg.pus(), 32u);
  EXPECT_TRUE(msg.smt());
  EXPECT_EQ(msg.online_cpus(), "0-31");
  EXPECT_EQ(msg.allowed_cpus(), "0-31");
  ASSERT_EQ(msg.numa_nodes_size(), 2);
  EXPECT_EQ(msg.numa_nodes(1).os_index(), 1u);
  EXPECT_EQ(msg.numa_nodes(1).cpus(), "16-31");
  EXPECT_EQ(msg.numa_nodes(1).memory_bytes(), 1ull << 30);
  ASSERT_EQ(msg.llcs_size(), 4);
  EXPECT_EQ(msg.llcs(3).cpus(), "24-31");
  EXPECT_EQ(msg.llcs(3).level(), 3u);
  EXPECT_EQ(msg.llcs(3).shared_by(), 4u);
  ASSERT_EQ(msg.package_cpus_size(), 2);
  EXPECT_EQ(msg.package_cpus(1), "16-31");
  EXPECT_EQ(msg.core_cpus_size(), 16);
  EXPECT_EQ(msg.core_cpus(15), "30-31");
  EXPECT_EQ(msg.clusters_size(), 0);
  EXPECT_EQ(msg.distances_size(), 0);
  ASSERT_EQ(msg.sched_domains_size(), 4);
  EXPECT_EQ(msg.sched_domains(3).name(), "NUMA");
  EXPECT_EQ(msg.sched_domains(3).span(), 32u);
  EXPECT_EQ(msg.sched_domains(3).groups(), 2u);
  EXPECT_EQ(msg.sched_domains(3).distance(), 20u);
}

TEST(TopologyProto, DistancesOfflineAndDisallowed) {
  schedrig::v1::Topology msg;
  topology_to_proto(hand_made(), &msg);
  ASSERT_EQ(msg.distances_size(), 2);
  EXPECT_EQ(msg.distances(0).values(1), 17u);
  EXPECT_EQ(msg.distances(1).values(0), 28u);
  EXPECT_EQ(msg.distances_source(), "sysfs");
  EXPECT_EQ(msg.offline_pus(), "4-7");
  EXPECT_EQ(msg.disallowed_pus(), "2-3,8");
  // Round trip through the wire bytes keeps every new field.
  schedrig::v1::Topology back;
  ASSERT_TRUE(back.ParseFromString(msg.SerializeAsString()));
  EXPECT_EQ(back.distances(1).values(0), 28u);
  EXPECT_EQ(back.sched_domains(0).name(), "MC");
}

TEST(TopologyPrint, PackagesNodesLlcsSmtDistancesDomains) {
  std::ostringstream out;
  print_topology(two_packages(), out);
  EXPECT_EQ(out.str(),
            "2 packages, 2 NUMA nodes, 4 LLCs, 16 cores, 32 PUs, SMT on; online 0-31; allowed "
            "0-31\n"
            "Package 0: cpus 0-15\n"
            "Package 1: cpus 16-31\n"
            "NUMA node 0: cpus 0-15, memory 1 GiB\n"
            "NUMA node 1: cpus 16-31, memory 1 GiB\n"
            "LLC 0: L3, 16 MiB, shared by 4 cores, cpus 0-7\n"
            "LLC 1: L3, 16 MiB, shared by 4 cores, cpus 8-15\n"
            "LLC 2: L3, 16 MiB, shared by 4 cores, cpus 16-23\n"
            "LLC 3: L3, 16 MiB, shared by 4 cores, cpus 24-31\n"
            "SMT: 2 PUs per core, siblings like core 0: cpus 0-1\n"
            "NUMA distances: unknown (none in this source; domains assume Linux's 10 local, 20 "
            "remote)\n"
            "Sched domains (as the kernel would build them; architecture unknown, so "
            "drivers/base/arch_topology.c's rules, bottom up):\n"
            "  SMT  span    2 PUs, 2 groups, 16 domains\n"
            "  MC   span    8 PUs, 4 groups, 4 domains\n"
            "  PKG  span   16 PUs, 2 groups, 2 domains\n"
            "  NUMA span   32 PUs, 2 groups, 1 domain, distance 20\n");
}

TEST(TopologyPrint, MemoryOnlyNodeOfflineDisallowedAndMatrix) {
  std::ostringstream out;
  print_topology(hand_made(), out);
  EXPECT_EQ(out.str(),
            "1 package, 2 NUMA nodes, 1 LLC, 5 cores, 5 PUs, SMT off; online 0-3,8; allowed 0-1; "
            "offline 4-7; disallowed 2-3,8\n"
            "Package 0: cpus 0-3,8\n"
            "NUMA node 0: cpus 0-3,8, memory 3 GiB\n"
            "NUMA node 8: no cpus (memory only), memory 16 GiB\n"
            "LLC 0: L3, 32 MiB, shared by 5 cores, cpus 0-3,8\n"
            "NUMA distances (sysfs):\n"
            "  node    0    8\n"
            "     0   10   17\n"
            "     8   28   10\n"
            "Sched domains (as the kernel would build them; architecture unknown, so "
            "drivers/base/arch_topology.c's rules, bottom up):\n"
            "  (the machine's domains, built over all 5 online PUs; counted where they hold an "
            "allowed PU, 0-1)\n"
            "  MC   span    5 PUs, 5 groups, 1 domain\n");
}

// Altra-style: every LLC a private per-core L2, said once instead of 8 times.
TEST(TopologyPrint, PrivatePerCoreCachesOnOneLine) {
  std::ostringstream out;
  print_topology(load_topology({Source::Kind::kSynthetic, "pack:2 numa:1 l2:4 core:1 pu:1"}), out);
  const std::string text = out.str();
  EXPECT_NE(text.find("LLC 0-7: L2, 4 MiB each, private (shared by 1 core each; no CPU cache is "
                      "shared), one per core, cpus 0-7\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("LLC 1:"), std::string::npos) << text;
  EXPECT_NE(text.find("  PKG  span    4 PUs, 4 groups, 2 domains\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace schedrig::topology
