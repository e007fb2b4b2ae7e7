// The per-CPU masks of each scheduler-domain level, by architecture (private
// to agent/topology): which CPUs a level's domain would hold before
// build_sched_domains() widens it to its child.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "agent/topology/topology.h"

namespace schedrig::topology {

using Cpus = std::vector<int>;  // sorted PU OS indexes

// Which of `sets` holds each PU, in O(1): built once from sorted sets.
class CpuIndex {
 public:
  CpuIndex() = default;
  explicit CpuIndex(const std::vector<Cpus>& sets);
  // The first set holding `cpu`, or an empty one.
  const Cpus& set_of(int cpu) const;

 private:
  const std::vector<Cpus>* sets_ = nullptr;
  std::vector<int> index_;  // PU OS index -> set, -1 for none
};

// One level of the architecture's topology table (set_sched_topology), or a
// NUMA level sched_init_numa() adds.
struct LevelKind {
  enum class Mask { kSmt, kCls, kMc, kNode, kNuma };
  std::string name;  // "SMT", "CLS", "MC", "PKG", "NODE" or "NUMA"
  Mask mask = Mask::kSmt;
  unsigned distance = 0;  // NUMA levels only
  std::string rule;       // SchedDomainLevel::rule
};

// The masks of one Topology:
//  x86 (is_x86(t.arch)): arch/x86/kernel/smpboot.c. cpu_smt_mask,
//    cpu_clustergroup_mask (L2) and cpu_coregroup_mask (LLC) hold only CPUs
//    of the same node (topology_sane); PKG is cpu_cpu_mask unless a package
//    holds CPUs of several nodes (x86_has_numa_in_package), when the node
//    level is sched_init_numa's NODE.
//  otherwise: drivers/base/arch_topology.c. cpu_coregroup_mask is the
//    smallest of node, package and LLC (a CPU without a node is bounded by
//    no node: cpumask_of_node(NUMA_NO_NODE) is every CPU), widened to the
//    cluster.
//  both: cpu_clustergroup_mask falls back to the SMT mask when the cluster
//    would be as wide as MC (arch_topology since Linux 5.19; x86 has no such
//    guard, so an L2 that is the LLC is named CLS by a 5.16+ kernel and MC
//    here, the rule saying so); a CPU in no node or in several (an ambiguous export)
//    has an empty node mask; NUMA masks unite the nodes within the level's
//    distance of each node holding the CPU.
class DomainMasks {
 public:
  explicit DomainMasks(const Topology& t);
  DomainMasks(const DomainMasks&) = delete;  // the indexes point into it
  DomainMasks& operator=(const DomainMasks&) = delete;

  // The levels bottom up: the table's, then one NUMA level per distinct
  // distance between nodes with CPUs above the local one.
  const std::vector<LevelKind>& levels() const { return levels_; }

  // The level's mask for `cpu`, before it is intersected with the online
  // CPUs and widened to its child.
  Cpus mask(const LevelKind& level, int cpu) const;

 private:
  using NodeList = std::vector<std::size_t>;  // numa_nodes indexes, ascending

  unsigned distance(std::size_t i, std::size_t j) const;
  std::vector<unsigned> numa_distances() const;
  bool numa_in_package() const;
  const NodeList* nodes_of(int cpu) const;                 // nullptr: in no node
  const Cpus& nodes_holding(const NodeList& nodes) const;  // their union (cached)
  Cpus node_peers(int cpu) const;                          // x86 topology_same_node
  Cpus node_mask(int cpu) const;
  Cpus smt_mask(int cpu) const;
  Cpus cls_mask(int cpu) const;
  Cpus mc_mask(int cpu) const;
  Cpus numa_mask(unsigned within, int cpu) const;
  void add_table_levels();

  const Topology& t_;
  bool x86_ = false;
  std::map<int, NodeList> nodes_of_;  // cpu -> the nodes holding it
  Cpus nodeless_;                     // online CPUs in no node
  std::vector<Cpus> llcs_;
  // Per PU OS index: its entry in core_cpus, clusters, llcs_, package_cpus.
  CpuIndex core_of_, cluster_of_, llc_of_, package_of_;
  std::vector<LevelKind> levels_;
  mutable std::map<NodeList, Cpus> union_cache_;
  mutable std::map<std::pair<unsigned, NodeList>, Cpus> numa_cache_;
};

}  // namespace schedrig::topology
