// load_topology on this machine: checked against what the kernel says itself.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sched.h>

#include "agent/topology/topology.h"
#include "common/cpulist.h"
#include "tests/support/run_command.h"

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

bool have_lstopo() { return testing::run_command("command -v lstopo-no-graphics").exit_code == 0; }

// Objects of `type` lstopo-no-graphics shows on this machine, disallowed PUs
// included (--whole-system, as load_topology keeps them).
unsigned lstopo_count(const std::string& type) {
  const auto r = testing::run_command(fmt::format(
      "lstopo-no-graphics --whole-system --no-io --only {} 2>/dev/null | grep -c .", type));
  return static_cast<unsigned>(std::stoul(r.output));
}

TEST(TopologyLive, CountsAgreeWithLstopo) {
  if (!have_lstopo()) GTEST_SKIP() << "lstopo-no-graphics not installed (Debian package hwloc)";
  const Topology t = load_topology({});
  EXPECT_EQ(t.pus, lstopo_count("pu"));
  EXPECT_EQ(t.cores, lstopo_count("core"));
  EXPECT_EQ(t.packages, lstopo_count("package"));
  EXPECT_EQ(t.numa_nodes.size(), lstopo_count("numanode"));
  if (!t.llcs.empty()) {
    EXPECT_EQ(t.llcs.size(), lstopo_count(fmt::format("l{}cache", t.llcs[0].level)));
  }
}

// Live, a matrix always exists: hwloc's, or sysfs's where hwloc records none
// (it skips a single node). Rows follow numa_nodes, the diagonal is local.
TEST(TopologyLive, DistancesCoverEveryNode) {
  if (!std::filesystem::exists("/sys/devices/system/node/online"))
    GTEST_SKIP() << "no /sys/devices/system/node on this kernel";
  const Topology t = load_topology({});
  ASSERT_EQ(t.distances.size(), t.numa_nodes.size()) << "source '" << t.distances_source << "'";
  for (std::size_t i = 0; i < t.distances.size(); ++i) {
    ASSERT_EQ(t.distances[i].size(), t.numa_nodes.size());
    EXPECT_EQ(t.distances[i][i], 10u);
  }
  EXPECT_TRUE(t.distances_source == "hwloc" || t.distances_source == "sysfs") << t.distances_source;
}

// The sysfs fallback reads ROOT/sys/devices/system/node: a fake root with
// another SLIT shows through on a single-node machine (hwloc has no matrix).
// 11 from the node to itself is no SLIT Linux takes: it is read, refused
// with a warning, and the domains use 10/20.
TEST(TopologyLive, SysfsFallbackReadsTheGivenRoot) {
  const Topology real = load_topology({});
  if (real.numa_nodes.size() != 1 || real.distances_source != "sysfs")
    GTEST_SKIP() << "hwloc has its own matrix here (" << real.numa_nodes.size() << " nodes)";
  testing::TempDir root;
  const std::string dir = root.path() + "/sys/devices/system/node";
  const std::string node = fmt::format("{}/node{}", dir, real.numa_nodes[0].os_index);
  std::filesystem::create_directories(node);
  std::ofstream(dir + "/online") << real.numa_nodes[0].os_index << "\n";
  std::ofstream(node + "/distance") << "11\n";
  const Topology fake = load_topology({}, procfs::Root::under(root.path()));
  EXPECT_TRUE(fake.distances.empty());
  EXPECT_EQ(fake.distances_source, "");
  ASSERT_EQ(fake.warnings.size(), 1u);
  EXPECT_EQ(fake.warnings[0].rfind("NUMA distances from sysfs ignored: the distance from a node to "
                                   "itself is 11, not 10; ",
                                   0),
            0u)
      << fake.warnings[0];

  std::ofstream(node + "/distance") << "10\n";
  const Topology valid = load_topology({}, procfs::Root::under(root.path()));
  EXPECT_EQ(valid.distances, (std::vector<std::vector<unsigned>>{{10}}));
  EXPECT_EQ(valid.distances_source, "sysfs");
  EXPECT_TRUE(valid.warnings.empty());
}

TEST(TopologyLive, OfflineAndDisallowedAreDisjointFromTheirSets) {
  const Topology t = load_topology({});
  for (int cpu : t.offline_pus)
    EXPECT_FALSE(std::binary_search(t.online_cpus.begin(), t.online_cpus.end(), cpu)) << cpu;
  for (int cpu : t.disallowed_pus) {
    EXPECT_TRUE(std::binary_search(t.online_cpus.begin(), t.online_cpus.end(), cpu)) << cpu;
    EXPECT_FALSE(std::binary_search(t.allowed_cpus.begin(), t.allowed_cpus.end(), cpu)) << cpu;
  }
  EXPECT_EQ(t.allowed_cpus.size() + t.disallowed_pus.size(), t.online_cpus.size());
}

}  // namespace
}  // namespace schedrig::topology
