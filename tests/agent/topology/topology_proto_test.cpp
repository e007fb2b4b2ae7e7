// topology_from_proto, the inverse of topology_to_proto, on real machines
// from hwloc-profiles/ (loaded through the XML source).
#include <string>

#include <gtest/gtest.h>

#include "agent/topology/topology.h"
#include "tests/support/hwloc_profile.h"

namespace schedrig::topology {
namespace {

using testing::hwloc_profile;

Topology round_trip(const Topology& t) {
  schedrig::v1::Topology msg;
  topology_to_proto(t, &msg);
  return topology_from_proto(msg);
}

class TopologyProtoRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(TopologyProtoRoundTrip, EveryFieldComesBack) {
  const Topology t = hwloc_profile(GetParam());
  const Topology back = round_trip(t);
  EXPECT_EQ(topology_to_json(back).dump(1), topology_to_json(t).dump(1));
  EXPECT_EQ(back.online_cpus, t.online_cpus);
  EXPECT_EQ(back.core_cpus, t.core_cpus);
  ASSERT_EQ(back.numa_nodes.size(), t.numa_nodes.size());
  for (std::size_t i = 0; i < t.numa_nodes.size(); ++i) {
    EXPECT_EQ(back.numa_nodes[i].os_index, t.numa_nodes[i].os_index);
    EXPECT_EQ(back.numa_nodes[i].cpus, t.numa_nodes[i].cpus);
    EXPECT_EQ(back.numa_nodes[i].memory_bytes, t.numa_nodes[i].memory_bytes);
  }
  EXPECT_EQ(back.distances, t.distances);
  ASSERT_EQ(back.sched_domains.size(), t.sched_domains.size());
  for (std::size_t i = 0; i < t.sched_domains.size(); ++i) {
    EXPECT_EQ(back.sched_domains[i].name, t.sched_domains[i].name);
    EXPECT_EQ(back.sched_domains[i].min_span, t.sched_domains[i].min_span);
  }
}

TEST_P(TopologyProtoRoundTrip, MessageComesBackByteForByte) {
  schedrig::v1::Topology msg;
  topology_to_proto(hwloc_profile(GetParam()), &msg);
  schedrig::v1::Topology again;
  topology_to_proto(topology_from_proto(msg), &again);
  EXPECT_EQ(again.SerializeAsString(), msg.SerializeAsString());
}

INSTANTIATE_TEST_SUITE_P(Profiles, TopologyProtoRoundTrip,
                         ::testing::Values("intel-i7-4770-1s", "amd-epyc9654-2s-nps4",
                                           "ampere-altra-2s-q80", "edge-memory-only-cxl-node",
                                           "edge-offline-smt-off-i7-4770",
                                           "intel-xeon8480-2s-snc4"));

TEST(TopologyFromProto, MalformedCpulistNamesTheField) {
  schedrig::v1::Topology msg;
  topology_to_proto(hwloc_profile("intel-i7-4770-1s"), &msg);
  msg.mutable_numa_nodes(0)->set_cpus("0-3,x");
  try {
    topology_from_proto(msg);
    FAIL() << "no TopologyError";
  } catch (const TopologyError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("agent topology: field 'numa_nodes[0].cpus': ", 0), 0u)
        << e.what();
  }
}

TEST(TopologyFromProto, EmptyMessageIsAnEmptyMachine) {
  const Topology t = topology_from_proto(schedrig::v1::Topology());
  EXPECT_EQ(t.pus, 0u);
  EXPECT_TRUE(t.online_cpus.empty());
  EXPECT_TRUE(t.numa_nodes.empty());
}

}  // namespace
}  // namespace schedrig::topology
