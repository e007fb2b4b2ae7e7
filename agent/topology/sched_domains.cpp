// derive_sched_domains: the scheduler-domain levels kernel/sched/topology.c
// would build from a Topology. Modelled on build_sched_domains() (one stack
// of domains per CPU, each span widened to hold its child, stopping at the
// first level that spans every CPU), sched_init_numa() (one NUMA level per
// distinct distance between nodes with CPUs), cpu_coregroup_mask() in
// drivers/base/arch_topology.c (MC is the smallest of node, package and LLC
// siblings, widened to the cluster) and cpu_attach_domain() with
// sd_parent_degenerate()/sd_degenerate() (drop a level spanning the same PUs
// as its child, then a bottom level of one PU).
#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "agent/topology/topology.h"

namespace schedrig::topology {
namespace {

using Cpus = std::vector<int>;  // sorted PU OS indexes

// Linux's node_distance() without a SLIT (include/linux/topology.h).
constexpr unsigned kLocalDistance = 10;
constexpr unsigned kRemoteDistance = 20;

Cpus unite(const Cpus& a, const Cpus& b) {
  Cpus out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

Cpus intersect(const Cpus& a, const Cpus& b) {
  Cpus out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool subset(const Cpus& part, const Cpus& whole) {
  return std::includes(whole.begin(), whole.end(), part.begin(), part.end());
}

bool holds(const Cpus& set, int cpu) { return std::binary_search(set.begin(), set.end(), cpu); }

// The first set in `sets` holding `cpu`, or an empty one.
Cpus set_holding(const std::vector<Cpus>& sets, int cpu) {
  for (const Cpus& s : sets)
    if (holds(s, cpu)) return s;
  return {};
}

struct LevelKind {
  std::string name;
  unsigned distance = 0;  // NUMA levels only
};

class Builder {
 public:
  explicit Builder(const Topology& t) : t_(t) {
    for (std::size_t i = 0; i < t.numa_nodes.size(); ++i)
      for (int cpu : t.numa_nodes[i].cpus) node_of_[cpu] = i;
    for (const Llc& l : t.llcs) llcs_.push_back(l.cpus);
    kinds_ = {{"SMT"}, {"CLS"}, {"MC"}, {"PKG"}};
    for (unsigned d : numa_distances()) kinds_.push_back({"NUMA", d});
  }

  std::vector<SchedDomainLevel> build() {
    const Cpus& cpu_map = t_.online_cpus;
    // raw[cpu][k]: the span of cpu's level-k domain before degeneration.
    std::map<int, std::vector<Cpus>> raw;
    for (int cpu : cpu_map) {
      std::vector<Cpus>& stack = raw[cpu];
      for (std::size_t k = 0; k < kinds_.size(); ++k) {
        Cpus span = intersect(mask(k, cpu), cpu_map);
        if (!stack.empty()) span = unite(span, stack.back());
        if (span.empty()) span = {cpu};
        stack.push_back(std::move(span));
        if (stack.back() == cpu_map) break;
      }
    }

    // Per level, every distinct surviving domain.
    std::vector<std::set<Cpus>> kept(kinds_.size());
    for (const auto& [cpu, stack] : raw) {
      std::vector<std::size_t> levels;
      for (std::size_t k = 0; k < stack.size(); ++k) {
        if (!levels.empty() && stack[k] == stack[levels.back()]) continue;  // degenerate parent
        levels.push_back(k);
      }
      if (!levels.empty() && stack[levels.front()].size() == 1) levels.erase(levels.begin());
      for (std::size_t k : levels) kept[k].insert(stack[k]);
    }

    std::vector<SchedDomainLevel> out;
    for (std::size_t k = 0; k < kinds_.size(); ++k) {
      if (kept[k].empty()) continue;
      const Cpus* widest = &*kept[k].begin();
      std::size_t narrowest = widest->size();
      for (const Cpus& d : kept[k]) {
        if (d.size() > widest->size()) widest = &d;
        narrowest = std::min(narrowest, d.size());
      }
      out.push_back(SchedDomainLevel{.name = kinds_[k].name,
                                     .span = static_cast<unsigned>(widest->size()),
                                     .min_span = static_cast<unsigned>(narrowest),
                                     .groups = groups_of(raw, k, *widest),
                                     .domains = static_cast<unsigned>(kept[k].size()),
                                     .distance = kinds_[k].distance});
    }
    return out;
  }

 private:
  unsigned distance(std::size_t i, std::size_t j) const {
    const std::size_t n = t_.numa_nodes.size();
    if (t_.distances.size() == n && t_.distances[i].size() == n) return t_.distances[i][j];
    return i == j ? kLocalDistance : kRemoteDistance;
  }

  // Distinct distances between nodes with CPUs, without the smallest (the
  // local one, whose level is the node itself: PKG).
  std::vector<unsigned> numa_distances() const {
    std::set<unsigned> all;
    for (std::size_t i = 0; i < t_.numa_nodes.size(); ++i) {
      if (t_.numa_nodes[i].cpus.empty()) continue;
      for (std::size_t j = 0; j < t_.numa_nodes.size(); ++j)
        if (!t_.numa_nodes[j].cpus.empty()) all.insert(distance(i, j));
    }
    if (!all.empty()) all.erase(all.begin());
    return {all.begin(), all.end()};
  }

  Cpus node_cpus(int cpu) const {
    const auto it = node_of_.find(cpu);
    return it == node_of_.end() ? Cpus{} : t_.numa_nodes[it->second].cpus;
  }

  Cpus smt_mask(int cpu) const {
    Cpus core = set_holding(t_.core_cpus, cpu);
    return core.empty() ? Cpus{cpu} : core;
  }

  // The level-k mask of `cpu` before it is widened to its child.
  Cpus mask(std::size_t k, int cpu) const {
    const std::string& name = kinds_[k].name;
    if (name == "SMT") return smt_mask(cpu);
    const Cpus cluster = set_holding(t_.clusters, cpu);
    if (name == "CLS") return cluster.empty() ? smt_mask(cpu) : cluster;
    const Cpus node = node_cpus(cpu);
    if (name == "MC") {
      Cpus m = node;
      const Cpus package = set_holding(t_.package_cpus, cpu);
      if (!package.empty() && subset(package, m)) m = package;
      const Cpus llc = set_holding(llcs_, cpu);
      if (!llc.empty() && subset(llc, m)) m = llc;
      if (!cluster.empty() && subset(m, cluster)) m = cluster;
      return m;
    }
    if (name == "PKG") return node;
    // NUMA: the CPUs of every node within this level's distance.
    Cpus m;
    const auto it = node_of_.find(cpu);
    if (it == node_of_.end()) return m;
    for (std::size_t j = 0; j < t_.numa_nodes.size(); ++j)
      if (distance(it->second, j) <= kinds_[k].distance) m = unite(m, t_.numa_nodes[j].cpus);
    return m;
  }

  // The sched groups of the level-k domain `span`, built from its first CPU
  // as build_sched_groups()/build_overlap_sched_groups() do: walk the span,
  // each CPU not yet covered adds its child domain as a group.
  static unsigned groups_of(const std::map<int, std::vector<Cpus>>& raw, std::size_t k,
                            const Cpus& span) {
    if (k == 0) return static_cast<unsigned>(span.size());
    std::set<int> covered;
    unsigned groups = 0;
    for (int cpu : span) {
      if (covered.count(cpu) != 0) continue;
      const std::vector<Cpus>& stack = raw.at(cpu);
      const Cpus& child = stack[std::min(k - 1, stack.size() - 1)];
      covered.insert(child.begin(), child.end());
      ++groups;
    }
    return groups;
  }

  const Topology& t_;
  std::map<int, std::size_t> node_of_;
  std::vector<Cpus> llcs_;
  std::vector<LevelKind> kinds_;
};

}  // namespace

std::vector<SchedDomainLevel> derive_sched_domains(const Topology& t) {
  if (t.online_cpus.empty()) return {};
  return Builder(t).build();
}

}  // namespace schedrig::topology
