// Memory binding for a workload's memory (`--membind local|node:N|interleave`,
// plans' `membind:`), applied through libnuma (numa(3)). Parsing checks the
// request against a Topology; applying changes the calling thread's memory
// policy, which threads and processes it creates afterwards inherit
// (set_mempolicy(2)).
#pragma once

#include <string>
#include <vector>

#include "agent/placement/placement.h"
#include "agent/topology/topology.h"

namespace schedrig::placement {

// A parsed memory binding.
//  kLocal:      allocate on the node of the CPU that faults the page in
//               (numa_set_localalloc, MPOL_LOCAL); `nodes` empty.
//  kNode:       allocate only on node `nodes[0]` (numa_set_membind, MPOL_BIND).
//  kInterleave: interleave pages over `nodes`, every node with memory
//               (numa_set_interleave_mask, MPOL_INTERLEAVE).
struct MemBind {
  enum class Mode { kLocal, kNode, kInterleave };
  Mode mode = Mode::kLocal;
  std::vector<unsigned> nodes;  // NUMA node OS indexes, sorted
  std::string text;             // as given ("node:1")
};

// Parses "local", "node:N" or "interleave" against `t`: node N must be one of
// t.numa_nodes (a memory-only node is fine: that is what CXL and HBM nodes
// are for) and must have memory when the topology reports node sizes (a
// memory-less node, 0 bytes, is refused: the kernel takes the binding and
// every allocation then fails with EINVAL/ENOMEM); interleave uses the nodes
// reporting memory (all nodes when none reports a size). Throws
// PlacementError: "membind 'node:3': no NUMA node 3; this machine has 2
// nodes (0-1); supported: local, node:N, interleave", "membind 'node:1':
// NUMA node 1 has no memory (0 bytes); nodes with memory: 0; ...".
MemBind parse_membind(const std::string& text, const topology::Topology& t);

// Applies `b` to the calling thread with libnuma. Returns true when applied.
// Where numa_available() < 0 (no NUMA support in the kernel) it logs one
// spdlog warning per process, applies nothing and returns false: the workload
// runs unbound. Throws std::system_error when the kernel does not take the
// policy (get_mempolicy(2) reads back another mode), e.g. a node outside
// this cpuset's mems_allowed.
bool apply_membind(const MemBind& b);

}  // namespace schedrig::placement
