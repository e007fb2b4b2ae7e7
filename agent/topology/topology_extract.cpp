// hwloc tree -> Topology: counts, packages, NUMA nodes and distances, LLCs,
// clusters, cores, online, allowed, offline and disallowed cpulists.
#include "agent/topology/topology_extract.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "agent/topology/hwloc_handle.h"
#include "agent/topology/live_cpus.h"
#include "agent/topology/numa_distances.h"

namespace schedrig::topology {
namespace {

unsigned count_of(hwloc_topology_t topo, hwloc_obj_type_t type) {
  return static_cast<unsigned>(std::max(0, hwloc_get_nbobjs_by_type(topo, type)));
}

std::vector<hwloc_obj_t> objects_of(hwloc_topology_t topo, hwloc_obj_type_t type) {
  std::vector<hwloc_obj_t> objs;
  for (hwloc_obj_t obj = nullptr; (obj = hwloc_get_next_obj_by_type(topo, type, obj)) != nullptr;)
    objs.push_back(obj);
  return objs;
}

std::vector<int> intersect(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// hwloc gives a CPU-less NUMA node the cpuset of the CPUs near it, the same as
// its CPU-bearing sibling's (HBM beside DDR on Xeon Max, MCDRAM on KNL). Linux
// puts each CPU in exactly one node: the most local one. So hand each PU to
// the node with the smallest cpuset holding it, lowest OS index on a tie.
std::vector<std::vector<int>> hwloc_node_cpus(hwloc_topology_t topo,
                                              const std::vector<hwloc_obj_t>& nodes) {
  std::vector<std::size_t> order(nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const int wa = hwloc_bitmap_weight(nodes[a]->cpuset);
    const int wb = hwloc_bitmap_weight(nodes[b]->cpuset);
    return wa != wb ? wa < wb : nodes[a]->os_index < nodes[b]->os_index;
  });
  std::vector<std::vector<int>> cpus(nodes.size());
  HwlocBitmap taken = make_bitmap();
  HwlocBitmap mine = make_bitmap();
  hwloc_const_cpuset_t online = hwloc_topology_get_topology_cpuset(topo);
  for (std::size_t i : order) {
    hwloc_bitmap_and(mine.get(), nodes[i]->cpuset, online);
    hwloc_bitmap_andnot(mine.get(), mine.get(), taken.get());
    hwloc_bitmap_or(taken.get(), taken.get(), mine.get());
    cpus[i] = bitmap_to_cpus(mine.get());
  }
  return cpus;
}

std::vector<NumaNode> numa_nodes_of(hwloc_topology_t topo, bool this_system,
                                    const std::vector<int>& online) {
  const std::vector<hwloc_obj_t> nodes = objects_of(topo, HWLOC_OBJ_NUMANODE);
  std::vector<std::vector<int>> cpus;
  if (this_system) {
    for (hwloc_obj_t node : nodes) {
      std::optional<std::vector<int>> kernel = libnuma_node_cpus(node->os_index);
      if (!kernel) break;
      cpus.push_back(intersect(*kernel, online));
    }
  }
  if (cpus.size() != nodes.size()) cpus = hwloc_node_cpus(topo, nodes);

  std::vector<NumaNode> out;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    out.push_back(NumaNode{.os_index = nodes[i]->os_index,
                           .cpus = std::move(cpus[i]),
                           .memory_bytes = nodes[i]->attr->numanode.local_memory});
  }
  std::sort(out.begin(), out.end(),
            [](const NumaNode& a, const NumaNode& b) { return a.os_index < b.os_index; });
  return out;
}

// The outermost data or unified CPU cache above `pu`, or nullptr. Instruction
// caches and memory-side caches (MemCache) are not hwloc dcache types.
hwloc_obj_t last_cache_of(hwloc_obj_t pu) {
  hwloc_obj_t best = nullptr;
  for (hwloc_obj_t obj = pu->parent; obj != nullptr; obj = obj->parent) {
    if (hwloc_obj_type_is_dcache(obj->type) &&
        (best == nullptr || obj->attr->cache.depth > best->attr->cache.depth)) {
      best = obj;
    }
  }
  return best;
}

std::vector<Llc> llcs_of(hwloc_topology_t topo, const std::vector<hwloc_obj_t>& cores) {
  // PUs walk in logical order, so each cache first shows up in its own
  // logical order too.
  std::vector<hwloc_obj_t> caches;
  for (hwloc_obj_t pu : objects_of(topo, HWLOC_OBJ_PU)) {
    hwloc_obj_t cache = last_cache_of(pu);
    if (cache != nullptr && std::find(caches.begin(), caches.end(), cache) == caches.end())
      caches.push_back(cache);
  }
  std::vector<Llc> out;
  for (hwloc_obj_t cache : caches) {
    unsigned shared_by = 0;
    if (cores.empty()) {
      shared_by = static_cast<unsigned>(hwloc_bitmap_weight(cache->cpuset));
    } else {
      for (hwloc_obj_t core : cores)
        if (hwloc_bitmap_isincluded(core->cpuset, cache->cpuset)) ++shared_by;
    }
    out.push_back(Llc{.cpus = bitmap_to_cpus(cache->cpuset),
                      .level = cache->attr->cache.depth,
                      .size_bytes = cache->attr->cache.size,
                      .shared_by = shared_by});
  }
  return out;
}

// The online PUs of each object of `type`, in logical order.
std::vector<std::vector<int>> online_cpus_of(hwloc_topology_t topo, hwloc_obj_type_t type) {
  std::vector<std::vector<int>> out;
  HwlocBitmap mine = make_bitmap();
  for (hwloc_obj_t obj : objects_of(topo, type)) {
    hwloc_bitmap_and(mine.get(), obj->cpuset, hwloc_topology_get_topology_cpuset(topo));
    out.push_back(bitmap_to_cpus(mine.get()));
  }
  return out;
}

bool strict_subset(const std::vector<int>& part, const std::vector<int>& whole) {
  return part.size() < whole.size() &&
         std::includes(whole.begin(), whole.end(), part.begin(), part.end());
}

// The first entry of `sets` holding `cpu`, or an empty set.
const std::vector<int>& set_holding(const std::vector<std::vector<int>>& sets, int cpu) {
  static const std::vector<int> kNone;
  for (const auto& s : sets)
    if (std::binary_search(s.begin(), s.end(), cpu)) return s;
  return kNone;
}

// Clusters: hwloc Groups of subtype "Cluster" (the Linux backend's reading of
// sysfs cluster_cpus), or, for topologies that cannot carry a subtype
// (synthetic), Groups without memory that hold 2+ cores strictly inside one
// NUMA node and inside one shared LLC (or anywhere in the node when the LLC
// is private per core).
std::vector<std::vector<int>> clusters_of(hwloc_topology_t topo, const Topology& t) {
  std::vector<std::vector<int>> nodes;
  for (const NumaNode& n : t.numa_nodes) nodes.push_back(n.cpus);

  std::vector<std::vector<int>> out;
  HwlocBitmap mine = make_bitmap();
  for (hwloc_obj_t group : objects_of(topo, HWLOC_OBJ_GROUP)) {
    hwloc_bitmap_and(mine.get(), group->cpuset, hwloc_topology_get_topology_cpuset(topo));
    std::vector<int> cpus = bitmap_to_cpus(mine.get());
    if (cpus.empty() || std::find(out.begin(), out.end(), cpus) != out.end()) continue;
    const bool named = group->subtype != nullptr && std::string(group->subtype) == "Cluster";
    if (!named) {
      if (group->subtype != nullptr || group->memory_arity > 0) continue;
      const int cores_inside =
          hwloc_get_nbobjs_inside_cpuset_by_type(topo, mine.get(), HWLOC_OBJ_CORE);
      if (cores_inside < 2) continue;
      if (!strict_subset(cpus, set_holding(nodes, cpus.front()))) continue;
      const auto llc = std::find_if(t.llcs.begin(), t.llcs.end(), [&](const Llc& l) {
        return std::binary_search(l.cpus.begin(), l.cpus.end(), cpus.front());
      });
      if (llc != t.llcs.end() && llc->shared_by > 1 && !strict_subset(cpus, llc->cpus)) continue;
    }
    out.push_back(std::move(cpus));
  }
  return out;
}

// The distance matrix over t.numa_nodes: hwloc's, then (live only) sysfs
// and libnuma.
void fill_distances(hwloc_topology_t topo, bool this_system, const procfs::Root& root,
                    Topology& t) {
  std::vector<unsigned> nodes;
  for (const NumaNode& n : t.numa_nodes) nodes.push_back(n.os_index);
  if (std::optional<DistanceMatrix> m = hwloc_numa_distances(topo, nodes)) {
    t.distances = std::move(*m);
    t.distances_source = "hwloc";
    return;
  }
  if (!this_system) return;
  if (std::optional<DistanceMatrix> m = sysfs_numa_distances(root, nodes)) {
    t.distances = std::move(*m);
    t.distances_source = "sysfs";
  } else if (std::optional<DistanceMatrix> n = libnuma_distances(nodes)) {
    t.distances = std::move(*n);
    t.distances_source = "libnuma";
  }
}

}  // namespace

Topology extract_topology(hwloc_topology_t topo, bool this_system, const procfs::Root& root) {
  Topology t;
  t.online_cpus = bitmap_to_cpus(hwloc_topology_get_topology_cpuset(topo));
  t.pus = static_cast<unsigned>(t.online_cpus.size());
  t.packages = count_of(topo, HWLOC_OBJ_PACKAGE);

  const std::vector<hwloc_obj_t> cores = objects_of(topo, HWLOC_OBJ_CORE);
  t.cores = cores.empty() ? t.pus : static_cast<unsigned>(cores.size());
  t.smt = std::any_of(cores.begin(), cores.end(),
                      [](hwloc_obj_t core) { return hwloc_bitmap_weight(core->cpuset) > 1; });

  t.package_cpus = online_cpus_of(topo, HWLOC_OBJ_PACKAGE);
  if (cores.empty()) {
    for (int cpu : t.online_cpus) t.core_cpus.push_back({cpu});
  } else {
    t.core_cpus = online_cpus_of(topo, HWLOC_OBJ_CORE);
  }
  HwlocBitmap offline = make_bitmap();
  hwloc_bitmap_andnot(offline.get(), hwloc_topology_get_complete_cpuset(topo),
                      hwloc_topology_get_topology_cpuset(topo));
  t.offline_pus = bitmap_to_cpus(offline.get());

  t.numa_nodes = numa_nodes_of(topo, this_system, t.online_cpus);
  t.llcs = llcs_of(topo, cores);
  t.clusters = clusters_of(topo, t);
  fill_distances(topo, this_system, root, t);

  if (this_system) {
    HwlocBitmap allowed = make_bitmap();
    hwloc_bitmap_and(allowed.get(), hwloc_topology_get_allowed_cpuset(topo),
                     hwloc_topology_get_topology_cpuset(topo));
    t.allowed_cpus = intersect(bitmap_to_cpus(allowed.get()), affinity_cpus());
  } else {
    t.allowed_cpus = t.online_cpus;
  }
  std::set_difference(t.online_cpus.begin(), t.online_cpus.end(), t.allowed_cpus.begin(),
                      t.allowed_cpus.end(), std::back_inserter(t.disallowed_pus));
  t.sched_domains = derive_sched_domains(t);
  return t;
}

}  // namespace schedrig::topology
