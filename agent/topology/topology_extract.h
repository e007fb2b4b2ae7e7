// Turning a loaded hwloc topology into a Topology (private to agent/topology).
#pragma once

#include <hwloc.h>

#include "agent/topology/topology.h"
#include "common/procfs/root.h"

namespace schedrig::topology {

// Reads counts, packages, NUMA nodes, distances, LLCs, clusters, cores and
// cpulists from a loaded hwloc topology, then derives the sched domains.
// `this_system`: the topology is this machine, so allowed_cpus is narrowed by
// sched_getaffinity(2), NUMA node cpus come from libnuma, and distances hwloc
// lacks come from `root`/sys/devices/system/node or libnuma. Throws
// std::system_error when sched_getaffinity fails.
Topology extract_topology(hwloc_topology_t topo, bool this_system, const procfs::Root& root);

}  // namespace schedrig::topology
