// load_topology on this machine: checked against what the kernel says itself.
#include <algorithm>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <sched.h>

#include "agent/topology/topology.h"
#include "common/cpulist.h"

namespace schedrig::topology {
namespace {

bool subset(const std::vector<int>& part, const std::vector<int>& whole) {
  return std::includes(whole.begin(), whole.end(), part.begin(), part.end());
}

TEST(TopologyLive, LoadsThisMachine) {
  const Topology t = load_topology({});
  EXPECT_GE(t.pus, 1u);
  EXPECT_EQ(t.pus, t.online_cpus.size());
  EXPECT_GE(t.cores, 1u);
  EXPECT_LE(t.cores, t.pus);
  EXPECT_GE(t.numa_nodes.size(), 1u);
  EXPECT_FALSE(t.allowed_cpus.empty());
  EXPECT_TRUE(std::is_sorted(t.online_cpus.begin(), t.online_cpus.end()));
  EXPECT_TRUE(subset(t.allowed_cpus, t.online_cpus)) << "allowed " << format_cpulist(t.allowed_cpus)
                                                     << " online " << format_cpulist(t.online_cpus);

  // Every PU sits in at most one NUMA node; every LLC holds online PUs.
  std::vector<int> seen;
  for (const NumaNode& node : t.numa_nodes) {
    EXPECT_TRUE(subset(node.cpus, t.online_cpus)) << "node " << node.os_index;
    seen.insert(seen.end(), node.cpus.begin(), node.cpus.end());
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end()) << "a PU in two nodes";
  for (const Llc& llc : t.llcs) {
    EXPECT_TRUE(subset(llc.cpus, t.online_cpus));
    EXPECT_GE(llc.shared_by, 1u);
  }
}

TEST(TopologyLive, OnlineMatchesSysfs) {
  std::ifstream in("/sys/devices/system/cpu/online");
  std::string text;
  if (!std::getline(in, text)) GTEST_SKIP() << "/sys/devices/system/cpu/online unreadable";
  EXPECT_EQ(format_cpulist(load_topology({}).online_cpus), format_cpulist(parse_cpulist(text)));
}

// allowed_cpus follows the calling thread's affinity: pin a thread to one
// allowed PU and load from there.
TEST(TopologyLive, AllowedFollowsTheCallingThreadsAffinity) {
  const Topology whole = load_topology({});
  const int cpu = whole.allowed_cpus.back();
  Topology pinned;
  int pin_error = 0;
  std::thread worker([&] {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0) {
      pin_error = errno;
      return;
    }
    pinned = load_topology({});
  });
  worker.join();
  if (pin_error != 0) GTEST_SKIP() << "sched_setaffinity: " << pin_error;
  EXPECT_EQ(pinned.allowed_cpus, std::vector<int>{cpu});
  EXPECT_EQ(pinned.online_cpus, whole.online_cpus);
}

}  // namespace
}  // namespace schedrig::topology
