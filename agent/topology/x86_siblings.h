// How x86 Linux groups CPUs where hwloc's objects differ from its masks
// (private to agent/topology; arch/x86/kernel/smpboot.c set_cpu_sibling_map).
#pragma once

#include <vector>

#include <hwloc.h>

#include "agent/topology/topology.h"

namespace schedrig::topology {

// The kernel's cores (thread siblings) from hwloc Cores, in hwloc logical
// order of each one's first Core.
struct KernelCores {
  std::vector<std::vector<int>> core_cpus;  // online PUs of each kernel core
  bool compute_units = false;               // some entry merges hwloc Cores
};

// x86 match_smt: on AMD family 15h (Bulldozer to Excavator, with TOPOEXT)
// the cores of one compute unit have the same cu_id and are SMT siblings,
// while hwloc shows each as a Core. A compute unit is the Cores under one L2
// on a package whose CPUFamilyNumber is 21, or, where the package does not
// say, the Cores sharing one L1i (only that family shares an L1i between
// cores). Packages of another vendor or family keep one entry per Core.
KernelCores x86_kernel_cores(hwloc_topology_t topo, const std::vector<hwloc_obj_t>& cores);

// x86 cpu_clustergroup_mask (Linux 5.16+, cpu_l2c_shared_mask): the online
// PUs of each L2 cache that holds 2+ of `t.core_cpus` and lies strictly
// inside its LLC (`t.llcs`); an L2 that is the LLC adds no level of its own.
// hwloc merges the sysfs Cluster group into such an L2, so it is read from
// the L2. Memory-side caches never count.
std::vector<std::vector<int>> x86_l2_clusters(hwloc_topology_t topo, const Topology& t);

}  // namespace schedrig::topology
