// NUMA node distance matrices from hwloc, sysfs and libnuma (private to
// agent/topology). A matrix has one row per requested node, in the order
// given: m[i][j] is the distance from nodes[i] to nodes[j] (ACPI SLIT
// relative latency, 10 = local).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <hwloc.h>

#include "common/procfs/root.h"

namespace schedrig::topology {

using DistanceMatrix = std::vector<std::vector<unsigned>>;

// ACPI SLIT bounds (drivers/acpi/numa/srat.c slit_valid(), one byte each).
constexpr unsigned kLocalSlitDistance = 10;
constexpr unsigned kMaxSlitDistance = 255;

// Why `m` is no table Linux would take, or nullopt when it is one: every row
// as long as the matrix, 10 from a node to itself, above 10 between two
// nodes, at most 255 (slit_valid(); Linux then ignores the table and uses
// 10 local, 20 remote).
std::optional<std::string> slit_problem(const DistanceMatrix& m);

// hwloc's NUMA latency matrix (the Linux backend's "NUMALatency", or one an
// XML carries, e.g. added with hwloc-annotate) over exactly the NUMA nodes
// `nodes` (OS indexes); matrices that do not mean latency (bandwidth) are
// never used, and values above 255 read as 256. nullopt when hwloc has none
// covering every node (it records none for one node, and synthetic
// topologies have none).
std::optional<DistanceMatrix> hwloc_numa_distances(hwloc_topology_t topo,
                                                   const std::vector<unsigned>& nodes);

// The kernel's matrix from sysfs, for the live machine only:
// ROOT/sys/devices/system/node/nodeN/distance holds the distances from node
// N to every online node, in the order of ROOT/sys/devices/system/node/online
// (drivers/base/node.c node_read_distance). nullopt when a file is missing,
// unreadable or malformed, or a node is not listed online.
std::optional<DistanceMatrix> sysfs_numa_distances(const procfs::Root& root,
                                                   const std::vector<unsigned>& nodes);

}  // namespace schedrig::topology
