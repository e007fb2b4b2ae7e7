// DomainMasks: each level's mask per CPU, as x86's smpboot.c or the generic
// arch_topology.c compute them, and sched_init_numa()'s NUMA masks.
#include "agent/topology/domain_masks.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>

#include "agent/topology/cpu_sets.h"
#include "agent/topology/numa_distances.h"

namespace schedrig::topology {
namespace {

// Linux's remote node_distance() without a SLIT (include/linux/topology.h,
// REMOTE_DISTANCE; the local one is kLocalSlitDistance).
constexpr unsigned kRemoteDistance = 20;

using Mask = LevelKind::Mask;

// True when some LLC is an L2 shared by several cores: on x86 Linux 5.16+
// its L2 mask then equals its LLC mask.
bool llc_is_a_shared_l2(const Topology& t) {
  for (const Llc& l : t.llcs)
    if (l.level == 2 && l.shared_by > 1) return true;
  return false;
}

// The rule phrases of the table levels, by architecture ("" when unknown).
struct Rules {
  std::string smt, cls, mc, pkg, node;
};

Rules x86_rules(const Topology& t) {
  Rules r;
  r.smt = t.compute_units ? "x86 match_smt: thread siblings, an AMD compute unit's two cores "
                            "(one cu_id) counted as siblings"
                          : "x86: thread siblings (cpu_smt_mask)";
  r.cls = "x86 since Linux 5.16: CPUs sharing an L2 (cpu_clustergroup_mask = cpu_l2c_shared_mask)";
  r.mc = "x86: CPUs sharing the LLC within the node (cpu_coregroup_mask = cpu_llc_shared_mask)";
  if (llc_is_a_shared_l2(t)) {
    r.mc +=
        "; the LLC is an L2 here, so the L2 mask is the same: Linux 5.16+ with SCHED_CLUSTER "
        "keeps this domain under the name CLS";
  }
  r.pkg = "x86: the node (cpu_cpu_mask; named DIE before Linux 6.7)";
  r.node =
      "x86 with several NUMA nodes in a package: no PKG level (x86_has_numa_in_package), so "
      "sched_init_numa's NODE level, the node, stands";
  return r;
}

Rules generic_rules() {
  Rules r;
  r.smt = "thread siblings (cpu_smt_mask)";
  r.cls = "cluster_cpus (cpu_clustergroup_mask; never as wide as MC)";
  r.mc = "the smallest of node, package and LLC (arch_topology cpu_coregroup_mask)";
  r.pkg = "the node (cpu_cpu_mask; named DIE before Linux 6.7)";
  return r;
}

}  // namespace

CpuIndex::CpuIndex(const std::vector<Cpus>& sets) : sets_(&sets) {
  for (std::size_t i = sets.size(); i-- > 0;) {  // backwards: the first holder wins
    for (int cpu : sets[i]) {
      if (cpu < 0) continue;
      const auto at = static_cast<std::size_t>(cpu);
      if (at >= index_.size()) index_.resize(at + 1, -1);
      index_[at] = static_cast<int>(i);
    }
  }
}

const Cpus& CpuIndex::set_of(int cpu) const {
  static const Cpus kNone;
  if (cpu < 0 || static_cast<std::size_t>(cpu) >= index_.size()) return kNone;
  const int i = index_[static_cast<std::size_t>(cpu)];
  return i < 0 ? kNone : (*sets_)[static_cast<std::size_t>(i)];
}

bool is_x86(const std::string& arch) {
  static const std::set<std::string_view> kX86 = {"x86_64", "amd64", "x86", "i386",
                                                  "i486",   "i586",  "i686"};
  return kX86.count(arch) != 0;
}

DomainMasks::DomainMasks(const Topology& t) : t_(t), x86_(is_x86(t.arch)) {
  for (std::size_t i = 0; i < t.numa_nodes.size(); ++i)
    for (int cpu : t.numa_nodes[i].cpus) nodes_of_[cpu].push_back(i);
  for (int cpu : t.online_cpus)
    if (nodes_of_.count(cpu) == 0) nodeless_.push_back(cpu);
  for (const Llc& l : t.llcs) llcs_.push_back(l.cpus);
  core_of_ = CpuIndex(t.core_cpus);
  cluster_of_ = CpuIndex(t.clusters);
  llc_of_ = CpuIndex(llcs_);
  package_of_ = CpuIndex(t.package_cpus);
  add_table_levels();
  const std::string numa_rule = t.arch.empty() ? "" : "sched_init_numa: the nodes within";
  for (unsigned d : numa_distances()) {
    levels_.push_back(
        {.name = "NUMA",
         .mask = Mask::kNuma,
         .distance = d,
         .rule = numa_rule.empty() ? "" : fmt::format("{} distance {}", numa_rule, d)});
  }
}

void DomainMasks::add_table_levels() {
  const Rules rules = t_.arch.empty() ? Rules{} : x86_ ? x86_rules(t_) : generic_rules();
  levels_.push_back({.name = "SMT", .mask = Mask::kSmt, .distance = 0, .rule = rules.smt});
  levels_.push_back({.name = "CLS", .mask = Mask::kCls, .distance = 0, .rule = rules.cls});
  levels_.push_back({.name = "MC", .mask = Mask::kMc, .distance = 0, .rule = rules.mc});
  if (x86_ && numa_in_package()) {
    levels_.push_back({.name = "NODE", .mask = Mask::kNode, .distance = 0, .rule = rules.node});
  } else {
    levels_.push_back({.name = "PKG", .mask = Mask::kNode, .distance = 0, .rule = rules.pkg});
  }
}

unsigned DomainMasks::distance(std::size_t i, std::size_t j) const {
  const std::size_t n = t_.numa_nodes.size();
  if (t_.distances.size() == n && t_.distances[i].size() == n) return t_.distances[i][j];
  return i == j ? kLocalSlitDistance : kRemoteDistance;
}

// Distinct distances between nodes with CPUs, without the smallest (the
// local one, whose level is the node itself: PKG or NODE).
std::vector<unsigned> DomainMasks::numa_distances() const {
  std::set<unsigned> all;
  for (std::size_t i = 0; i < t_.numa_nodes.size(); ++i) {
    if (t_.numa_nodes[i].cpus.empty()) continue;
    for (std::size_t j = 0; j < t_.numa_nodes.size(); ++j)
      if (!t_.numa_nodes[j].cpus.empty()) all.insert(distance(i, j));
  }
  if (!all.empty()) all.erase(all.begin());
  return {all.begin(), all.end()};
}

// x86_has_numa_in_package: some package holds CPUs of two nodes.
bool DomainMasks::numa_in_package() const {
  for (const Cpus& package : t_.package_cpus) {
    std::set<std::size_t> nodes;
    for (int cpu : package) {
      if (const NodeList* holding = nodes_of(cpu)) nodes.insert(holding->begin(), holding->end());
    }
    if (nodes.size() > 1) return true;
  }
  return false;
}

const DomainMasks::NodeList* DomainMasks::nodes_of(int cpu) const {
  const auto it = nodes_of_.find(cpu);
  return it == nodes_of_.end() ? nullptr : &it->second;
}

const Cpus& DomainMasks::nodes_holding(const NodeList& nodes) const {
  const auto cached = union_cache_.find(nodes);
  if (cached != union_cache_.end()) return cached->second;
  Cpus out;
  for (std::size_t i : nodes) out = unite(out, t_.numa_nodes[i].cpus);
  return union_cache_.emplace(nodes, std::move(out)).first->second;
}

// topology_same_node(): the CPUs of the node(s) holding `cpu`; CPUs in no
// node are all "the same node" (NUMA_NO_NODE == NUMA_NO_NODE).
Cpus DomainMasks::node_peers(int cpu) const {
  const NodeList* nodes = nodes_of(cpu);
  return nodes == nullptr ? nodeless_ : nodes_holding(*nodes);
}

// cpu_cpu_mask / sched_init_numa's NODE level: the one node holding `cpu`;
// empty in no node or in several (the export does not say which).
Cpus DomainMasks::node_mask(int cpu) const {
  const NodeList* nodes = nodes_of(cpu);
  if (nodes == nullptr || nodes->size() != 1) return {};
  return t_.numa_nodes[nodes->front()].cpus;
}

Cpus DomainMasks::smt_mask(int cpu) const {
  const Cpus& core = core_of_.set_of(cpu);
  if (core.empty()) return {cpu};
  return x86_ ? intersect(core, node_peers(cpu)) : core;
}

Cpus DomainMasks::mc_mask(int cpu) const {
  const Cpus& llc = llc_of_.set_of(cpu);
  if (x86_) return llc.empty() ? Cpus{cpu} : intersect(llc, node_peers(cpu));
  const NodeList* nodes = nodes_of(cpu);
  Cpus m = nodes == nullptr ? t_.online_cpus : nodes_holding(*nodes);
  const Cpus& package = package_of_.set_of(cpu);
  if (!package.empty() && subset(package, m)) m = package;
  if (!llc.empty() && subset(llc, m)) m = llc;
  const Cpus& cluster = cluster_of_.set_of(cpu);
  if (!cluster.empty() && subset(m, cluster)) m = cluster;
  return m;
}

Cpus DomainMasks::cls_mask(int cpu) const {
  Cpus cluster = cluster_of_.set_of(cpu);
  if (x86_ && !cluster.empty()) cluster = intersect(cluster, node_peers(cpu));
  if (cluster.empty() || subset(mc_mask(cpu), cluster)) return smt_mask(cpu);
  return cluster;
}

Cpus DomainMasks::numa_mask(unsigned within, int cpu) const {
  const NodeList* nodes = nodes_of(cpu);
  if (nodes == nullptr) return {};
  const auto key = std::make_pair(within, *nodes);
  const auto cached = numa_cache_.find(key);
  if (cached != numa_cache_.end()) return cached->second;
  NodeList near;
  for (std::size_t j = 0; j < t_.numa_nodes.size(); ++j) {
    const bool is_near = std::any_of(nodes->begin(), nodes->end(),
                                     [&](std::size_t i) { return distance(i, j) <= within; });
    if (is_near) near.push_back(j);
  }
  return numa_cache_.emplace(key, nodes_holding(near)).first->second;
}

Cpus DomainMasks::mask(const LevelKind& level, int cpu) const {
  switch (level.mask) {
    case Mask::kSmt:
      return smt_mask(cpu);
    case Mask::kCls:
      return cls_mask(cpu);
    case Mask::kMc:
      return mc_mask(cpu);
    case Mask::kNode:
      return node_mask(cpu);
    case Mask::kNuma:
      break;
  }
  return numa_mask(level.distance, cpu);
}

}  // namespace schedrig::topology
