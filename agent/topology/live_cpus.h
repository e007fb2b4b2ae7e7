// What the running kernel says about CPUs, beside hwloc (private to
// agent/topology): this process's affinity, libnuma's node cpulists and
// node distances.
#pragma once

#include <optional>
#include <vector>

namespace schedrig::topology {

// PUs in this thread's sched_getaffinity(2) mask, sorted (the mask is sized up
// until the kernel accepts it). Throws std::system_error on another failure.
std::vector<int> affinity_cpus();

// The PUs Linux assigns to NUMA node `node`, from libnuma numa_node_to_cpus
// (sysfs nodeN/cpumap), sorted; empty for a memory-only node. nullopt when
// libnuma is unavailable (numa_available() < 0) or cannot read the node.
std::optional<std::vector<int>> libnuma_node_cpus(unsigned node);

// The distances between `nodes` (OS indexes) from libnuma numa_distance(3)
// (the kernel's SLIT), one row per node in the given order. nullopt when
// libnuma is unavailable or reports 0 (unknown) for a pair.
std::optional<std::vector<std::vector<unsigned>>> libnuma_distances(
    const std::vector<unsigned>& nodes);

}  // namespace schedrig::topology
