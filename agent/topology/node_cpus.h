// Which online PUs each NUMA node of an hwloc export holds (private to
// agent/topology; the live machine asks libnuma instead).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <hwloc.h>

#include "agent/topology/numa_distances.h"

namespace schedrig::topology {

// The PUs of each of `nodes` (same order), sorted, and the warnings about
// them. `cpus[i]` is empty for a memory-only node.
struct NodeCpus {
  std::vector<std::vector<int>> cpus;
  std::vector<std::string> warnings;  // "ambiguous export: ..." lines
};

// Hands each online PU to the NUMA node with the smallest hwloc cpuset
// holding it (hwloc gives a CPU-less node the cpuset of the CPUs near it;
// Linux puts each CPU in exactly one node). Nodes with the same non-empty
// cpuset ("twins") are told apart by, in order:
//  1. memory marks: an hwloc subtype other than "DRAM" (MCDRAM, HBM, NVM,
//     SPM, GPUMemory, CXL-DRAM) or a "DAXDevice" info (memory onlined from a
//     DAX device, as Xeon Max HBM and CXL are): such a twin holds no CPU;
//  2. `distances` (rows in `nodes` order, or nullopt): of the unmarked twins,
//     the one with the smallest sum of distances to the nodes outside the set
//     holds the CPUs (a memory-only node sits behind its CPUs' node);
//  3. node numbering: Linux numbers nodes with CPUs before CPU-less ones, so
//     the lowest-numbered remaining twin holds the CPUs, unless that leaves a
//     twin without CPUs numbered below a node with CPUs (nodes 0 and 1 twins,
//     node 2 with CPUs): then the export is ambiguous (an hwloc 1.x
//     Cluster-on-Die export whose groups were lost), every twin set that
//     only numbering told apart keeps all its CPUs in each remaining twin,
//     and one warning per set names them.
NodeCpus node_cpus_of(hwloc_topology_t topo, const std::vector<hwloc_obj_t>& nodes,
                      const std::optional<DistanceMatrix>& distances);

}  // namespace schedrig::topology
