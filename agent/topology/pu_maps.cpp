// pu_to_llc, pu_to_node: per-PU lookups for workloads that report by LLC or node.
#include <algorithm>

#include "agent/topology/topology.h"

namespace schedrig::topology {
namespace {

std::vector<int> empty_map(const Topology& t) {
  if (t.online_cpus.empty()) return {};
  const int highest = *std::max_element(t.online_cpus.begin(), t.online_cpus.end());
  return std::vector<int>(static_cast<std::size_t>(highest) + 1, -1);
}

void mark(std::vector<int>& map, const std::vector<int>& cpus, int value) {
  for (int cpu : cpus)
    if (cpu >= 0 && static_cast<std::size_t>(cpu) < map.size())
      map[static_cast<std::size_t>(cpu)] = value;
}

}  // namespace

std::vector<int> pu_to_llc(const Topology& t) {
  std::vector<int> map = empty_map(t);
  for (std::size_t i = 0; i < t.llcs.size(); ++i) mark(map, t.llcs[i].cpus, static_cast<int>(i));
  return map;
}

std::vector<int> pu_to_node(const Topology& t) {
  std::vector<int> map = empty_map(t);
  for (const NumaNode& node : t.numa_nodes) mark(map, node.cpus, static_cast<int>(node.os_index));
  return map;
}

}  // namespace schedrig::topology
