// parse_membind against topologies; apply_membind on this machine, in a
// thread of its own so the test process keeps its policy.
#include <string>
#include <system_error>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <numa.h>
#include <numaif.h>

#include "agent/placement/membind.h"

namespace schedrig::placement {
namespace {

topology::Topology two_nodes_and_cxl() {
  topology::Topology t = topology::load_topology(
      {topology::Source::Kind::kSynthetic, "pack:2 numa:1(memory=8GiB) core:2 pu:1"});
  t.numa_nodes.push_back({.os_index = 4, .cpus = {}, .memory_bytes = 64ull << 30});
  return t;
}

std::string membind_error(const std::string& text, const topology::Topology& t) {
  try {
    parse_membind(text, t);
  } catch (const PlacementError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no PlacementError for '" << text << "'";
  return "";
}

TEST(MemBind, ParsesTheThreeForms) {
  const topology::Topology t = two_nodes_and_cxl();
  const MemBind local = parse_membind("local", t);
  EXPECT_EQ(local.mode, MemBind::Mode::kLocal);
  EXPECT_TRUE(local.nodes.empty());
  const MemBind node = parse_membind("node:1", t);
  EXPECT_EQ(node.mode, MemBind::Mode::kNode);
  EXPECT_EQ(node.nodes, std::vector<unsigned>{1});
  EXPECT_EQ(node.text, "node:1");
  // A memory-only node is a fine target for memory.
  EXPECT_EQ(parse_membind("node:4", t).nodes, std::vector<unsigned>{4});
  const MemBind inter = parse_membind("interleave", t);
  EXPECT_EQ(inter.mode, MemBind::Mode::kInterleave);
  EXPECT_EQ(inter.nodes, (std::vector<unsigned>{0, 1, 4}));
}

TEST(MemBind, InterleaveSkipsNodesWithoutMemory) {
  topology::Topology t = two_nodes_and_cxl();
  t.numa_nodes[1].memory_bytes = 0;
  EXPECT_EQ(parse_membind("interleave", t).nodes, (std::vector<unsigned>{0, 4}));
}

// node:N on a node reporting 0 bytes while others report memory is refused;
// where no node reports a size, nothing is known and nothing is refused.
TEST(MemBind, AMemorylessNodeIsRefusedWhenSizesAreKnown) {
  topology::Topology t = two_nodes_and_cxl();
  t.numa_nodes[1].memory_bytes = 0;
  EXPECT_EQ(membind_error("node:1", t),
            "membind 'node:1': NUMA node 1 has no memory (0 bytes); nodes with memory: 0,4; "
            "supported: local, node:N, interleave");
  EXPECT_EQ(parse_membind("node:0", t).nodes, std::vector<unsigned>{0});
  for (topology::NumaNode& n : t.numa_nodes) n.memory_bytes = 0;
  EXPECT_EQ(parse_membind("node:1", t).nodes, std::vector<unsigned>{1});
}

TEST(MemBind, ErrorsNameTheBindingAndTheMachine) {
  const topology::Topology t = two_nodes_and_cxl();
  EXPECT_EQ(membind_error("node:3", t),
            "membind 'node:3': no NUMA node 3; this machine has 3 nodes (0-1,4); supported: "
            "local, node:N, interleave");
  EXPECT_EQ(membind_error("node:x", t).rfind("membind 'node:x': 'x' is not a NUMA node number", 0),
            0u);
  EXPECT_EQ(membind_error("node:", t).rfind("membind 'node:': '' is not a NUMA node number", 0),
            0u);
  EXPECT_EQ(membind_error("remote", t),
            "membind 'remote': unknown memory binding; supported: local, node:N, interleave");
  EXPECT_THROW(parse_membind("", t), std::invalid_argument);
}

// Runs `fn` in a fresh thread and returns the thread's policy mode after it.
int mode_after(const std::function<void()>& fn, std::string* error) {
  int mode = -1;
  std::thread worker([&] {
    try {
      fn();
      get_mempolicy(&mode, nullptr, 0, nullptr, 0);
    } catch (const std::exception& e) {
      *error = e.what();
    }
  });
  worker.join();
  return mode & 0xff;
}

TEST(MemBind, AppliesToTheCallingThread) {
  if (numa_available() < 0) GTEST_SKIP() << "no NUMA support in this kernel";
  const topology::Topology t = topology::load_topology({});
  const std::string node = fmt::format("node:{}", t.numa_nodes.front().os_index);
  std::string error;
  EXPECT_EQ(mode_after([&] { EXPECT_TRUE(apply_membind(parse_membind(node, t))); }, &error),
            MPOL_BIND);
  EXPECT_EQ(error, "");
  EXPECT_EQ(mode_after([&] { EXPECT_TRUE(apply_membind(parse_membind("interleave", t))); }, &error),
            MPOL_INTERLEAVE);
  EXPECT_EQ(error, "");
  const int local = mode_after([&] { apply_membind(parse_membind("local", t)); }, &error);
  EXPECT_TRUE(local == MPOL_LOCAL || local == MPOL_DEFAULT) << local;
  EXPECT_EQ(error, "");
}

// A node the kernel does not have: libnuma complains on stderr, the policy
// stays as it was, and apply_membind says so.
TEST(MemBind, APolicyTheKernelRefusesIsAnError) {
  if (numa_available() < 0) GTEST_SKIP() << "no NUMA support in this kernel";
  const int missing = numa_max_node() + 1;
  if (missing >= numa_num_possible_nodes()) GTEST_SKIP() << "every possible node exists";
  MemBind bogus;
  bogus.mode = MemBind::Mode::kNode;
  bogus.nodes = {static_cast<unsigned>(missing)};
  bogus.text = fmt::format("node:{}", missing);
  std::string error;
  mode_after([&] { apply_membind(bogus); }, &error);
  EXPECT_NE(error.find(fmt::format("membind 'node:{}': the kernel did not take", missing)),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace schedrig::placement
