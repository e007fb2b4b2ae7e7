// hwloc tree -> Topology: counts, packages, NUMA nodes and distances, LLCs,
// clusters, cores, online, allowed, offline and disallowed cpulists.
#include "agent/topology/topology_extract.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "agent/topology/cpu_sets.h"
#include "agent/topology/hwloc_handle.h"
#include "agent/topology/live_cpus.h"
#include "agent/topology/node_cpus.h"
#include "agent/topology/numa_distances.h"
#include "agent/topology/x86_siblings.h"
#include "common/cpulist.h"
#include "common/printable.h"

namespace schedrig::topology {
namespace {

// The NUMA nodes with their PUs: libnuma's on this system, else from the
// hwloc cpusets (node_cpus_of, whose warnings go to `warnings`).
std::vector<NumaNode> numa_nodes_of(hwloc_topology_t topo, bool this_system,
                                    const std::vector<int>& online,
                                    std::vector<std::string>& warnings) {
  const std::vector<hwloc_obj_t> nodes = objects_of(topo, HWLOC_OBJ_NUMANODE);
  std::vector<std::vector<int>> cpus;
  if (this_system) {
    for (hwloc_obj_t node : nodes) {
      std::optional<std::vector<int>> kernel = libnuma_node_cpus(node->os_index);
      if (!kernel) break;
      cpus.push_back(intersect(*kernel, online));
    }
  }
  if (cpus.size() != nodes.size()) {
    std::vector<unsigned> ids;
    for (hwloc_obj_t node : nodes) ids.push_back(node->os_index);
    NodeCpus recorded = node_cpus_of(topo, nodes, hwloc_numa_distances(topo, ids));
    cpus = std::move(recorded.cpus);
    warnings = std::move(recorded.warnings);
  }

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
// caches and MemCache objects are not hwloc dcache types; a cache of subtype
// "MemorySideCache" (KNL's MCDRAM as hwloc 2.9 reports it) is skipped.
hwloc_obj_t last_cache_of(hwloc_obj_t pu) {
  hwloc_obj_t best = nullptr;
  for (hwloc_obj_t obj = pu->parent; obj != nullptr; obj = obj->parent) {
    if (hwloc_obj_type_is_dcache(obj->type) && !is_memory_side_cache(obj) &&
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
  for (hwloc_obj_t obj : objects_of(topo, type)) out.push_back(online_cpus_in(topo, obj));
  return out;
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
  for (hwloc_obj_t group : objects_of(topo, HWLOC_OBJ_GROUP)) {
    std::vector<int> cpus = online_cpus_in(topo, group);
    if (cpus.empty() || std::find(out.begin(), out.end(), cpus) != out.end()) continue;
    const bool named = group->subtype != nullptr && std::string(group->subtype) == "Cluster";
    if (!named) {
      if (group->subtype != nullptr || group->memory_arity > 0) continue;
      const int cores_inside =
          hwloc_get_nbobjs_inside_cpuset_by_type(topo, group->cpuset, HWLOC_OBJ_CORE);
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

// Linux builds one NUMA level per distinct distance; real machines have a
// handful. More than this many makes a table no machine has, and a domain
// stack per PU per level that would not fit in memory.
constexpr std::size_t kMaxNumaLevels = 32;

// Distinct distances between nodes with CPUs in `m` (rows in t.numa_nodes order).
std::size_t distinct_cpu_distances(const DistanceMatrix& m, const Topology& t) {
  std::set<unsigned> seen;
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < m.size(); ++j)
      if (!t.numa_nodes[i].cpus.empty() && !t.numa_nodes[j].cpus.empty()) seen.insert(m[i][j]);
  return seen.size();
}

// Keeps `m` as t.distances unless Linux would not take it as a SLIT or it
// has more distinct distances than kMaxNumaLevels; then a warning says why
// and the domains use Linux's 10 local, 20 remote.
void keep_distances(DistanceMatrix m, const char* source, Topology& t) {
  std::optional<std::string> problem = slit_problem(m);
  if (!problem) {
    const std::size_t distinct = distinct_cpu_distances(m, t);
    if (distinct > kMaxNumaLevels) {
      problem = fmt::format(
          "it has {} distinct distances between nodes with CPUs, more than the {} NUMA levels "
          "modelled",
          distinct, kMaxNumaLevels);
    }
  }
  if (problem) {
    t.warnings.push_back(fmt::format(
        "NUMA distances from {} ignored: {}; the domains use Linux's defaults, 10 local and 20 "
        "remote, as the kernel does with a SLIT it rejects (slit_valid)",
        source, *problem));
    return;
  }
  t.distances = std::move(m);
  t.distances_source = source;
}

// The distance matrix over t.numa_nodes: hwloc's, then (live only) sysfs
// and libnuma.
void fill_distances(hwloc_topology_t topo, bool this_system, const procfs::Root& root,
                    Topology& t) {
  std::vector<unsigned> nodes;
  for (const NumaNode& n : t.numa_nodes) nodes.push_back(n.os_index);
  if (std::optional<DistanceMatrix> m = hwloc_numa_distances(topo, nodes)) {
    keep_distances(std::move(*m), "hwloc", t);
    return;
  }
  if (!this_system) return;
  if (std::optional<DistanceMatrix> m = sysfs_numa_distances(root, nodes)) {
    keep_distances(std::move(*m), "sysfs", t);
  } else if (std::optional<DistanceMatrix> n = libnuma_distances(nodes)) {
    keep_distances(std::move(*n), "libnuma", t);
  }
}

// True when a package's infos name an x86 CPU: a CPUID vendor string, the
// x86-only /proc/cpuinfo "cpu family" (CPUFamilyNumber), or an Intel or AMD
// model name (sysfs dumps without uname record only CPUModel).
bool x86_package(hwloc_obj_t package) {
  static const std::array<std::string_view, 5> kVendors = {
      "GenuineIntel", "AuthenticAMD", "HygonGenuine", "CentaurHauls", "  Shanghai  "};
  const char* vendor = hwloc_obj_get_info_by_name(package, "CPUVendor");
  if (vendor != nullptr)
    return std::find(kVendors.begin(), kVendors.end(), vendor) != kVendors.end();
  if (hwloc_obj_get_info_by_name(package, "CPUFamilyNumber") != nullptr) return true;
  const char* model = hwloc_obj_get_info_by_name(package, "CPUModel");
  if (model == nullptr) return false;
  const std::string_view m(model);
  return m.find("Intel(R)") != std::string_view::npos || m.find("AMD ") != std::string_view::npos;
}

// Linux's bounds on the numbers it gives CPUs and nodes: NR_CPUS is at most
// 8192 (x86 MAXSMP), cpulists here stop at 65536; MAX_NUMNODES is at most
// 1024 (NODES_SHIFT 10).
constexpr int kMaxPuIndex = 1 << 16;
constexpr unsigned kMaxNodeIndex = 1024;

// Refuses a topology no kernel could have: a PU numbered 65536 or above, a
// NUMA node numbered 1024 or above (or unknown), two nodes with one number.
void check_numbering(hwloc_topology_t topo) {
  const int last_pu = hwloc_bitmap_last(hwloc_topology_get_complete_cpuset(topo));
  if (last_pu >= kMaxPuIndex || hwloc_bitmap_weight(hwloc_topology_get_complete_cpuset(topo)) < 0) {
    throw TopologyError(fmt::format(
        "PU {} is numbered beyond the {} this tool reads (Linux's NR_CPUS is at most 8192)",
        last_pu, kMaxPuIndex));
  }
  std::set<unsigned> seen;
  for (hwloc_obj_t node : objects_of(topo, HWLOC_OBJ_NUMANODE)) {
    if (node->os_index >= kMaxNodeIndex) {
      throw TopologyError(
          fmt::format("NUMA node number {} is beyond Linux's {} nodes (MAX_NUMNODES)",
                      node->os_index == HWLOC_UNKNOWN_INDEX ? std::string("unknown")
                                                            : std::to_string(node->os_index),
                      kMaxNodeIndex));
    }
    if (!seen.insert(node->os_index).second)
      throw TopologyError(fmt::format("two NUMA nodes are numbered {}", node->os_index));
  }
}

// The machine's architecture (uname -m) as hwloc records it, escaped and at
// most 64 bytes (it is a file's text); "x86" when it has none but the
// packages are x86 CPUs; else "".
std::string architecture_of(hwloc_topology_t topo) {
  const char* arch = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "Architecture");
  if (arch != nullptr) return printable(std::string_view(arch).substr(0, 64));
  const std::vector<hwloc_obj_t> packages = objects_of(topo, HWLOC_OBJ_PACKAGE);
  const bool x86 = !packages.empty() && std::all_of(packages.begin(), packages.end(), x86_package);
  return x86 ? "x86" : "";
}

// The PUs this process may use: live, hwloc's allowed cpuset (cgroup) and
// sched_getaffinity; from an export, the allowed_cpuset it recorded.
std::vector<int> allowed_cpus_of(hwloc_topology_t topo, bool this_system) {
  HwlocBitmap allowed = make_bitmap();
  hwloc_bitmap_and(allowed.get(), hwloc_topology_get_allowed_cpuset(topo),
                   hwloc_topology_get_topology_cpuset(topo));
  std::vector<int> cpus = bitmap_to_cpus(allowed.get());
  return this_system ? intersect(cpus, affinity_cpus()) : cpus;
}

// core_cpus, compute_units and smt: hwloc Cores, merged into compute units
// on x86 (x86_kernel_cores); one PU each when hwloc has no Core objects.
void fill_cores(hwloc_topology_t topo, const std::vector<hwloc_obj_t>& cores, Topology& t) {
  t.cores = cores.empty() ? t.pus : static_cast<unsigned>(cores.size());
  if (cores.empty()) {
    for (int cpu : t.online_cpus) t.core_cpus.push_back({cpu});
  } else if (is_x86(t.arch)) {
    KernelCores kernel = x86_kernel_cores(topo, cores);
    t.core_cpus = std::move(kernel.core_cpus);
    t.compute_units = kernel.compute_units;
  } else {
    t.core_cpus = online_cpus_of(topo, HWLOC_OBJ_CORE);
  }
  t.smt = std::any_of(t.core_cpus.begin(), t.core_cpus.end(),
                      [](const std::vector<int>& core) { return core.size() > 1; });
}

}  // namespace

Topology extract_topology(hwloc_topology_t topo, bool this_system, const procfs::Root& root) {
  check_numbering(topo);
  Topology t;
  t.arch = architecture_of(topo);
  t.online_cpus = bitmap_to_cpus(hwloc_topology_get_topology_cpuset(topo));
  t.pus = static_cast<unsigned>(t.online_cpus.size());
  t.package_cpus = online_cpus_of(topo, HWLOC_OBJ_PACKAGE);
  t.packages = static_cast<unsigned>(t.package_cpus.size());
  const std::vector<hwloc_obj_t> cores = objects_of(topo, HWLOC_OBJ_CORE);
  fill_cores(topo, cores, t);
  HwlocBitmap offline = make_bitmap();
  hwloc_bitmap_andnot(offline.get(), hwloc_topology_get_complete_cpuset(topo),
                      hwloc_topology_get_topology_cpuset(topo));
  t.offline_pus = bitmap_to_cpus(offline.get());

  t.numa_nodes = numa_nodes_of(topo, this_system, t.online_cpus, t.warnings);
  t.llcs = llcs_of(topo, cores);
  t.clusters = is_x86(t.arch) ? x86_l2_clusters(topo, t) : clusters_of(topo, t);
  fill_distances(topo, this_system, root, t);
  t.allowed_cpus = allowed_cpus_of(topo, this_system);
  if (t.allowed_cpus.empty() && !t.online_cpus.empty()) {
    t.warnings.push_back(fmt::format(
        "no allowed PU: the {} allows none of the online PUs {}, so no placement can run here",
        this_system ? "cgroup cpuset and affinity" : "export's allowed_cpuset",
        format_cpulist(t.online_cpus)));
  }
  std::set_difference(t.online_cpus.begin(), t.online_cpus.end(), t.allowed_cpus.begin(),
                      t.allowed_cpus.end(), std::back_inserter(t.disallowed_pus));
  t.sched_domains = derive_sched_domains(t);
  return t;
}

}  // namespace schedrig::topology
