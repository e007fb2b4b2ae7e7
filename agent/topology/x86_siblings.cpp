// x86 kernel cores (compute units) and clusters (L2 sharing) from hwloc.
#include "agent/topology/x86_siblings.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "agent/topology/cpu_sets.h"
#include "agent/topology/hwloc_handle.h"

namespace schedrig::topology {
namespace {

// hwloc's info `name` of the package above `obj`, or "" when it has none.
std::string_view package_info(hwloc_topology_t topo, hwloc_obj_t obj, const char* name) {
  hwloc_obj_t package = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, obj);
  if (package == nullptr) return "";
  const char* value = hwloc_obj_get_info_by_name(package, name);
  return value == nullptr ? "" : value;
}

bool holds_several_cores(hwloc_topology_t topo, hwloc_obj_t cache) {
  return cache != nullptr &&
         hwloc_get_nbobjs_inside_cpuset_by_type(topo, cache->cpuset, HWLOC_OBJ_CORE) >= 2;
}

// The cache that makes `core` part of an AMD compute unit, or nullptr.
hwloc_obj_t compute_unit_of(hwloc_topology_t topo, hwloc_obj_t core) {
  const std::string_view vendor = package_info(topo, core, "CPUVendor");
  const std::string_view family = package_info(topo, core, "CPUFamilyNumber");
  if (!vendor.empty() && vendor != "AuthenticAMD") return nullptr;
  if (!family.empty() && family != "21") return nullptr;
  const hwloc_obj_type_t shared = family.empty() ? HWLOC_OBJ_L1ICACHE : HWLOC_OBJ_L2CACHE;
  hwloc_obj_t cache = hwloc_get_ancestor_obj_by_type(topo, shared, core);
  return holds_several_cores(topo, cache) ? cache : nullptr;
}

}  // namespace

KernelCores x86_kernel_cores(hwloc_topology_t topo, const std::vector<hwloc_obj_t>& cores) {
  KernelCores out;
  std::map<hwloc_obj_t, std::size_t> unit_entry;  // compute unit cache -> entry
  for (hwloc_obj_t core : cores) {
    const std::vector<int> cpus = online_cpus_in(topo, core);
    hwloc_obj_t unit = compute_unit_of(topo, core);
    const auto known = unit == nullptr ? unit_entry.end() : unit_entry.find(unit);
    if (known != unit_entry.end()) {
      auto& entry = out.core_cpus[known->second];
      entry = unite(entry, cpus);
      out.compute_units = true;
      continue;
    }
    if (unit != nullptr) unit_entry[unit] = out.core_cpus.size();
    out.core_cpus.push_back(cpus);
  }
  return out;
}

std::vector<std::vector<int>> x86_l2_clusters(hwloc_topology_t topo, const Topology& t) {
  std::vector<std::vector<int>> out;
  for (hwloc_obj_t l2 : objects_of(topo, HWLOC_OBJ_L2CACHE)) {
    if (is_memory_side_cache(l2)) continue;
    const std::vector<int> cpus = online_cpus_in(topo, l2);
    if (cpus.empty()) continue;
    const auto cores_inside = std::count_if(
        t.core_cpus.begin(), t.core_cpus.end(),
        [&](const std::vector<int>& core) { return !core.empty() && holds(cpus, core.front()); });
    if (cores_inside < 2) continue;
    const auto llc = std::find_if(t.llcs.begin(), t.llcs.end(),
                                  [&](const Llc& l) { return holds(l.cpus, cpus.front()); });
    if (llc != t.llcs.end() && strict_subset(cpus, llc->cpus)) out.push_back(cpus);
  }
  return out;
}

}  // namespace schedrig::topology
