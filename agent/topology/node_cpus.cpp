// node_cpus_of: hwloc NUMA nodes -> the PUs Linux would give each, with
// twins (nodes of one cpuset) told apart or reported as ambiguous.
#include "agent/topology/node_cpus.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "agent/topology/hwloc_handle.h"
#include "common/cpulist.h"

namespace schedrig::topology {
namespace {

using Cpus = std::vector<int>;

// hwloc marks memory that is not plain DRAM with a subtype (MCDRAM, HBM,
// NVM, SPM, GPUMemory, CXL-DRAM) and memory onlined from a DAX device
// (kmem: Xeon Max HBM in flat mode, Optane, CXL) with a DAXDevice info.
bool marked_as_memory(hwloc_obj_t node) {
  if (node->subtype != nullptr && std::string_view(node->subtype) != "DRAM") return true;
  return hwloc_obj_get_info_by_name(node, "DAXDevice") != nullptr;
}

// "0 and 1", "0, 1 and 4".
std::string node_names(const std::vector<hwloc_obj_t>& nodes, const std::vector<std::size_t>& ids) {
  std::string out;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (k > 0) out += k + 1 == ids.size() ? " and " : ", ";
    out += std::to_string(nodes[ids[k]]->os_index);
  }
  return out;
}

class TwinSorter {
 public:
  TwinSorter(const std::vector<hwloc_obj_t>& nodes, const std::vector<Cpus>& sets,
             const std::optional<DistanceMatrix>& distances)
      : nodes_(nodes), sets_(sets), distances_(distances) {}

  // The members of one twin set that hold its CPUs (one, or several when
  // nothing tells them apart).
  std::vector<std::size_t> holders(const std::vector<std::size_t>& twins) const {
    std::vector<std::size_t> unmarked;
    for (std::size_t i : twins)
      if (!marked_as_memory(nodes_[i])) unmarked.push_back(i);
    if (unmarked.empty()) return {twins.front()};  // all marked: the lowest OS index
    if (unmarked.size() == 1) return unmarked;
    return nearest(unmarked, twins);
  }

 private:
  // Of `candidates`, those with the smallest sum of distances to the nodes
  // with CPUs outside `twins` (all of them when there is no matrix).
  std::vector<std::size_t> nearest(const std::vector<std::size_t>& candidates,
                                   const std::vector<std::size_t>& twins) const {
    if (!distances_ || distances_->size() != nodes_.size()) return candidates;
    std::vector<std::uint64_t> sums;
    for (std::size_t i : candidates) {
      std::uint64_t sum = 0;
      for (std::size_t j = 0; j < nodes_.size(); ++j) {
        const bool outside = std::find(twins.begin(), twins.end(), j) == twins.end();
        if (outside && !sets_[j].empty()) sum += (*distances_)[i][j];
      }
      sums.push_back(sum);
    }
    const std::uint64_t least = *std::min_element(sums.begin(), sums.end());
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < candidates.size(); ++k)
      if (sums[k] == least) out.push_back(candidates[k]);
    return out;
  }

  const std::vector<hwloc_obj_t>& nodes_;
  const std::vector<Cpus>& sets_;
  const std::optional<DistanceMatrix>& distances_;
};

// Which nodes may hold PUs, and which twins share their leader's PUs.
struct Assignment {
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  explicit Assignment(std::size_t nodes) : may_hold(nodes, true), shares_with(nodes, kNone) {}
  std::vector<bool> may_hold;
  std::vector<std::size_t> shares_with;  // an ambiguous twin -> its set's first node
};

// Smallest cpuset first (lowest OS index on a tie): each node that may hold
// PUs takes what is left of its set; an ambiguous twin takes its leader's.
std::vector<Cpus> assign(const std::vector<hwloc_obj_t>& nodes, const std::vector<Cpus>& sets,
                         const Assignment& plan) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (plan.may_hold[i]) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (sets[a].size() != sets[b].size()) return sets[a].size() < sets[b].size();
    return nodes[a]->os_index < nodes[b]->os_index;
  });
  std::vector<Cpus> cpus(nodes.size());
  std::vector<bool> taken;
  for (std::size_t i : order) {
    const std::size_t leader = plan.shares_with[i];
    if (leader != Assignment::kNone && leader != i) {
      cpus[i] = cpus[leader];  // sorted after its leader: same size, higher OS index
      continue;
    }
    for (int cpu : sets[i]) {
      const auto at = static_cast<std::size_t>(cpu);
      if (at >= taken.size()) taken.resize(at + 1, false);
      if (taken[at]) continue;
      taken[at] = true;
      cpus[i].push_back(cpu);
    }
  }
  return cpus;
}

// Linux numbers the nodes with CPUs before the CPU-less ones (ACPI SRAT's
// processor affinity entries are parsed before its memory ones; CXL windows
// come last). True when every twin of `tied` left without CPUs is numbered
// above every node that got some.
bool numbering_holds(const std::vector<hwloc_obj_t>& nodes, const std::vector<Cpus>& cpus,
                     const std::vector<std::vector<std::size_t>>& tied) {
  unsigned highest_with_cpus = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (!cpus[i].empty()) highest_with_cpus = std::max(highest_with_cpus, nodes[i]->os_index);
  for (const std::vector<std::size_t>& holders : tied)
    for (std::size_t i : holders)
      if (cpus[i].empty() && nodes[i]->os_index < highest_with_cpus) return false;
  return true;
}

// Each node's online PUs as hwloc records them (its attachment's cpuset).
std::vector<Cpus> recorded_sets(hwloc_topology_t topo, const std::vector<hwloc_obj_t>& nodes) {
  std::vector<Cpus> sets;
  for (hwloc_obj_t node : nodes) sets.push_back(online_cpus_in(topo, node));
  return sets;
}

}  // namespace

NodeCpus node_cpus_of(hwloc_topology_t topo, const std::vector<hwloc_obj_t>& nodes,
                      const std::optional<DistanceMatrix>& distances) {
  const std::vector<Cpus> sets = recorded_sets(topo, nodes);
  std::map<Cpus, std::vector<std::size_t>> twins;  // same non-empty cpuset -> nodes
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (!sets[i].empty()) twins[sets[i]].push_back(i);

  Assignment plan(nodes.size());
  std::vector<std::vector<std::size_t>> tied;  // twin sets nothing but numbering tells apart
  const TwinSorter sorter(nodes, sets, distances);
  for (auto& [set, members] : twins) {
    if (members.size() < 2) continue;
    std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
      return nodes[a]->os_index < nodes[b]->os_index;
    });
    const std::vector<std::size_t> holders = sorter.holders(members);
    for (std::size_t i : members)
      plan.may_hold[i] = std::find(holders.begin(), holders.end(), i) != holders.end();
    if (holders.size() < 2) continue;
    for (std::size_t i : holders) plan.may_hold[i] = i == holders.front();  // tentatively
    tied.push_back(holders);
  }

  NodeCpus out;
  out.cpus = assign(nodes, sets, plan);
  if (numbering_holds(nodes, out.cpus, tied)) return out;
  // Some twin that would be memory-only is numbered below a node with CPUs:
  // the export lost which CPUs its twins hold, everywhere alike.
  for (const std::vector<std::size_t>& holders : tied) {
    for (std::size_t i : holders) {
      plan.may_hold[i] = true;
      plan.shares_with[i] = holders.front();
    }
    out.warnings.push_back(fmt::format(
        "ambiguous export: NUMA nodes {} {} list cpus {} and nothing marks one as memory-only "
        "(an export that lost which CPUs each node holds, such as an hwloc 1.x Cluster-on-Die "
        "one); each is shown with all of them, node:N placements get all of them, and their "
        "PUs get no node-level sched domain (the distance levels are kept)",
        node_names(nodes, holders), holders.size() == 2 ? "both" : "all",
        format_cpulist(sets[holders.front()])));
  }
  out.cpus = assign(nodes, sets, plan);
  return out;
}

}  // namespace schedrig::topology
