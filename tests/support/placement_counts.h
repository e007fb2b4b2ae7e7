// Test support: where a placement's PUs land. Header only: a test that
// includes it links schedrig_placement.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "agent/placement/placement.h"
#include "agent/topology/topology.h"
#include "common/cpulist.h"

namespace schedrig::testing {

// The cpulist `policy` resolves to on `t` ("0,24,48,72").
inline std::string placed_cpus(const std::string& policy, const topology::Topology& t) {
  return format_cpulist(placement::resolve_placement(policy, t).cpus);
}

// How many of `pus` fall in each of `sets`.
inline std::vector<int> per_set(const std::vector<int>& pus,
                                const std::vector<std::vector<int>>& sets) {
  std::vector<int> out(sets.size(), 0);
  for (int cpu : pus)
    for (std::size_t i = 0; i < sets.size(); ++i)
      if (std::binary_search(sets[i].begin(), sets[i].end(), cpu)) ++out[i];
  return out;
}

// The PUs of each NUMA node of `t`, in numa_nodes order.
inline std::vector<std::vector<int>> node_sets(const topology::Topology& t) {
  std::vector<std::vector<int>> out;
  for (const auto& n : t.numa_nodes) out.push_back(n.cpus);
  return out;
}

// The PUs of each LLC of `t`, in llcs order.
inline std::vector<std::vector<int>> llc_sets(const topology::Topology& t) {
  std::vector<std::vector<int>> out;
  for (const auto& l : t.llcs) out.push_back(l.cpus);
  return out;
}

}  // namespace schedrig::testing
