// The live-only sysfs distance reader, against a fake tree.
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "agent/topology/numa_distances.h"
#include "tests/support/run_command.h"

namespace schedrig::topology {
namespace {

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// sysfs_numa_distances over the fake tree in `root`.
std::optional<DistanceMatrix> distances(const testing::TempDir& root,
                                        const std::vector<unsigned>& nodes) {
  return sysfs_numa_distances(procfs::Root::under(root.path()), nodes);
}

std::filesystem::path node_dir(const testing::TempDir& root) {
  return std::filesystem::path(root.path()) / "sys/devices/system/node";
}

// Columns follow the online node list, which may have holes (nodes 0 and 2).
TEST(SysfsDistances, ColumnsFollowTheOnlineNodes) {
  testing::TempDir root;
  write(node_dir(root) / "online", "0,2\n");
  write(node_dir(root) / "node0/distance", "10 21\n");
  write(node_dir(root) / "node2/distance", "21 10\n");
  const auto m = distances(root, {0, 2});
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(*m, (DistanceMatrix{{10, 21}, {21, 10}}));
  // Asked in another order, rows and columns follow the request.
  EXPECT_EQ(*distances(root, {2, 0}), (DistanceMatrix{{10, 21}, {21, 10}}));
}

TEST(SysfsDistances, AsymmetricValuesStayWhereTheKernelPutsThem) {
  testing::TempDir root;
  write(node_dir(root) / "online", "0-2\n");
  write(node_dir(root) / "node0/distance", "10 16 32\n");
  write(node_dir(root) / "node1/distance", "17 10 25\n");
  write(node_dir(root) / "node2/distance", "32 25 10\n");
  EXPECT_EQ(*distances(root, {0, 1, 2}),
            (DistanceMatrix{{10, 16, 32}, {17, 10, 25}, {32, 25, 10}}));
  // A subset of the nodes takes the matching columns.
  EXPECT_EQ(*distances(root, {1, 2}), (DistanceMatrix{{10, 25}, {25, 10}}));
}

TEST(SysfsDistances, MissingOrMalformedFilesGiveNothing) {
  testing::TempDir root;
  EXPECT_FALSE(distances(root, {0}).has_value());  // no online file
  write(node_dir(root) / "online", "0-1\n");
  write(node_dir(root) / "node0/distance", "10 20\n");
  EXPECT_FALSE(distances(root, {0, 1}).has_value());  // node1 missing
  write(node_dir(root) / "node1/distance", "20 ten\n");
  EXPECT_FALSE(distances(root, {0, 1}).has_value());  // not a number
  write(node_dir(root) / "node1/distance", "20 10 30\n");
  EXPECT_FALSE(distances(root, {0, 1}).has_value());  // 3 columns, 2 online
  write(node_dir(root) / "node1/distance", "20 10\n");
  EXPECT_EQ(*distances(root, {0, 1}), (DistanceMatrix{{10, 20}, {20, 10}}));
  EXPECT_FALSE(distances(root, {0, 3}).has_value());  // node 3 not online
  EXPECT_FALSE(distances(root, {}).has_value());
}

}  // namespace
}  // namespace schedrig::topology
