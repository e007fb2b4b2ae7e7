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
  return t;
}

TEST(TopologyJson, ShapeAndCpulists) {
  const nlohmann::json j = topology_to_json(two_packages());
  for (const char* key :
       {"packages", "numa_nodes", "llcs", "cores", "pus", "smt", "online_cpus", "allowed_cpus"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j.size(), 8u);
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
}

TEST(TopologyPrint, SummaryThenOneLinePerNodeAndLlc) {
  std::ostringstream out;
  print_topology(two_packages(), out);
  EXPECT_EQ(out.str(),
            "2 packages, 2 NUMA nodes, 4 LLCs, 16 cores, 32 PUs, SMT on; online 0-31; allowed "
            "0-31\n"
            "NUMA node 0: cpus 0-15, memory 1 GiB\n"
            "NUMA node 1: cpus 16-31, memory 1 GiB\n"
            "LLC 0: L3, 16 MiB, shared by 4 cores, cpus 0-7\n"
            "LLC 1: L3, 16 MiB, shared by 4 cores, cpus 8-15\n"
            "LLC 2: L3, 16 MiB, shared by 4 cores, cpus 16-23\n"
            "LLC 3: L3, 16 MiB, shared by 4 cores, cpus 24-31\n");
}

TEST(TopologyPrint, MemoryOnlyNodeAndRestrictedAllowed) {
  std::ostringstream out;
  print_topology(hand_made(), out);
  EXPECT_EQ(out.str(),
            "1 package, 2 NUMA nodes, 1 LLC, 5 cores, 5 PUs, SMT off; online 0-3,8; allowed 0-1\n"
            "NUMA node 0: cpus 0-3,8, memory 3 GiB\n"
            "NUMA node 8: no cpus (memory only), memory 16 GiB\n"
            "LLC 0: L3, 32 MiB, shared by 5 cores, cpus 0-3,8\n");
}

}  // namespace
}  // namespace schedrig::topology
