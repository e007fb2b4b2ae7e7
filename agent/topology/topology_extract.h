// Turning a loaded hwloc topology into a Topology (private to agent/topology).
#pragma once

#include <hwloc.h>

#include "agent/topology/topology.h"

namespace schedrig::topology {

// Reads counts, NUMA nodes, LLCs and cpulists from a loaded hwloc topology.
// `this_system`: the topology is this machine, so allowed_cpus is narrowed by
// sched_getaffinity(2) and NUMA node cpus come from libnuma. Throws
// std::system_error when sched_getaffinity fails.
Topology extract_topology(hwloc_topology_t topo, bool this_system);

}  // namespace schedrig::topology
