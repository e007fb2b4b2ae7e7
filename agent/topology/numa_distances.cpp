// NUMA distance matrices: hwloc distances API and sysfs node/distance files.
#include "agent/topology/numa_distances.h"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include <hwloc/distances.h>

#include "common/cpulist.h"
#include "common/procfs/read_file.h"

namespace schedrig::topology {
namespace {

// Index of `os_index` in `nodes`, or -1.
int position_of(const std::vector<unsigned>& nodes, unsigned os_index) {
  const auto it = std::find(nodes.begin(), nodes.end(), os_index);
  return it == nodes.end() ? -1 : static_cast<int>(it - nodes.begin());
}

// The matrix of `d` reordered to `nodes`, or nullopt if `d` misses one.
std::optional<DistanceMatrix> reorder(const hwloc_distances_s& d,
                                      const std::vector<unsigned>& nodes) {
  std::vector<int> column(nodes.size(), -1);  // node i -> index in d.objs
  for (unsigned k = 0; k < d.nbobjs; ++k) {
    const int i = position_of(nodes, d.objs[k]->os_index);
    if (i >= 0) column[static_cast<std::size_t>(i)] = static_cast<int>(k);
  }
  if (std::find(column.begin(), column.end(), -1) != column.end()) return std::nullopt;
  DistanceMatrix m(nodes.size(), std::vector<unsigned>(nodes.size(), 0));
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      const std::uint64_t v = d.values[static_cast<std::size_t>(column[i]) * d.nbobjs +
                                       static_cast<std::size_t>(column[j])];
      m[i][j] = static_cast<unsigned>(std::min<std::uint64_t>(v, kMaxSlitDistance + 1));
    }
  }
  return m;
}

// The first line of a sysfs file; nullopt when it cannot be read or is empty.
std::optional<std::string> read_line(const std::filesystem::path& path) {
  const std::optional<std::string> text = procfs::try_read_small_file(path);
  if (!text || text->empty()) return std::nullopt;
  return std::string(procfs::first_line(*text));
}

}  // namespace

std::optional<std::string> slit_problem(const DistanceMatrix& m) {
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (m[i].size() != m.size())
      return fmt::format("row {} has {} values for {} nodes", i, m[i].size(), m.size());
    for (std::size_t j = 0; j < m.size(); ++j) {
      const unsigned d = m[i][j];
      if (i == j && d != kLocalSlitDistance)
        return fmt::format("the distance from a node to itself is {}, not {}", d,
                           kLocalSlitDistance);
      if (i != j && d <= kLocalSlitDistance)
        return fmt::format("a distance between two nodes is {}, not above {}", d,
                           kLocalSlitDistance);
      if (d > kMaxSlitDistance)
        return fmt::format("a distance is above {} (a SLIT entry is one byte)", kMaxSlitDistance);
    }
  }
  return std::nullopt;
}

std::optional<DistanceMatrix> hwloc_numa_distances(hwloc_topology_t topo,
                                                   const std::vector<unsigned>& nodes) {
  if (nodes.empty()) return std::nullopt;
  unsigned nr = 0;
  if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, nullptr, 0, 0) != 0 || nr == 0)
    return std::nullopt;
  std::vector<hwloc_distances_s*> all(nr, nullptr);
  if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, all.data(), 0, 0) != 0)
    return std::nullopt;
  all.resize(nr);
  // Only a latency matrix is a SLIT (relative latency); a bandwidth matrix
  // means the opposite and is never used.
  std::optional<DistanceMatrix> out;
  for (hwloc_distances_s* d : all) {
    if (!out && (d->kind & HWLOC_DISTANCES_KIND_MEANS_LATENCY) != 0) out = reorder(*d, nodes);
  }
  for (hwloc_distances_s* d : all) hwloc_distances_release(topo, d);
  return out;
}

std::optional<DistanceMatrix> sysfs_numa_distances(const procfs::Root& root,
                                                   const std::vector<unsigned>& nodes) {
  if (nodes.empty()) return std::nullopt;
  const std::filesystem::path dir = root.path("sys/devices/system/node");
  const std::optional<std::string> online_text = read_line(dir / "online");
  if (!online_text) return std::nullopt;
  std::vector<int> online;
  try {
    online = parse_cpulist(*online_text);  // a nodelist has the cpulist syntax
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  DistanceMatrix m(nodes.size(), std::vector<unsigned>(nodes.size(), 0));
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::optional<std::string> line =
        read_line(dir / ("node" + std::to_string(nodes[i])) / "distance");
    if (!line) return std::nullopt;
    std::istringstream fields(*line);
    std::vector<unsigned> row;
    for (long v = 0; fields >> v;) {
      if (v < 0) return std::nullopt;
      row.push_back(static_cast<unsigned>(v));
    }
    if (!fields.eof() || row.size() != online.size()) return std::nullopt;
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      const auto col = std::find(online.begin(), online.end(), static_cast<int>(nodes[j]));
      if (col == online.end()) return std::nullopt;
      m[i][j] = row[static_cast<std::size_t>(col - online.begin())];
    }
  }
  return m;
}

}  // namespace schedrig::topology
