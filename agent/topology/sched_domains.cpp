// derive_sched_domains: the scheduler-domain levels kernel/sched/topology.c
// would build from a Topology. Modelled on build_sched_domains() (one stack
// of domains per CPU, each span widened to hold its child, stopping at the
// first level that spans every CPU), with each level's mask from
// DomainMasks (the architecture's topology table and sched_init_numa()), and
// cpu_attach_domain() with sd_parent_degenerate()/sd_degenerate() (drop a
// level spanning the same PUs as its child, then a bottom level of one PU).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "agent/topology/cpu_sets.h"
#include "agent/topology/domain_masks.h"
#include "agent/topology/topology.h"

namespace schedrig::topology {
namespace {

// Every distinct span once: a domain stack holds ids into it, so a machine
// of thousands of PUs keeps one copy of each NUMA span, not one per PU.
class SpanPool {
 public:
  std::size_t id_of(Cpus span) {
    const auto [it, added] = ids_.emplace(std::move(span), spans_.size());
    if (added) spans_.push_back(&it->first);  // map keys never move
    return it->second;
  }
  const Cpus& span(std::size_t id) const { return *spans_[id]; }

 private:
  std::vector<const Cpus*> spans_;
  std::map<Cpus, std::size_t> ids_;
};

using Stack = std::vector<std::size_t>;  // span ids, level by level

class Builder {
 public:
  explicit Builder(const Topology& t) : t_(t), masks_(t) {}

  std::vector<SchedDomainLevel> build() {
    const std::vector<LevelKind>& kinds = masks_.levels();
    const Cpus& cpu_map = t_.online_cpus;
    // raw[cpu][k]: cpu's level-k domain before degeneration.
    for (int cpu : cpu_map) {
      Stack& stack = raw_[cpu];
      for (std::size_t k = 0; k < kinds.size(); ++k) {
        Cpus span = intersect(masks_.mask(kinds[k], cpu), cpu_map);
        if (!stack.empty()) span = unite(span, pool_.span(stack.back()));
        if (span.empty()) span = {cpu};
        const bool whole = span == cpu_map;
        stack.push_back(pool_.id_of(std::move(span)));
        if (whole) break;
      }
    }

    // Per level, every distinct surviving domain holding an allowed PU.
    std::vector<std::set<std::size_t>> kept(kinds.size());
    const Cpus seen = t_.allowed_cpus.empty() ? cpu_map : intersect(t_.allowed_cpus, cpu_map);
    for (int cpu : seen) {
      const Stack& stack = raw_.at(cpu);
      std::vector<std::size_t> levels;
      for (std::size_t k = 0; k < stack.size(); ++k) {
        if (!levels.empty() && stack[k] == stack[levels.back()]) continue;  // degenerate parent
        levels.push_back(k);
      }
      if (!levels.empty() && pool_.span(stack[levels.front()]).size() == 1)
        levels.erase(levels.begin());
      for (std::size_t k : levels) kept[k].insert(stack[k]);
    }

    std::vector<SchedDomainLevel> out;
    for (std::size_t k = 0; k < kinds.size(); ++k) {
      if (kept[k].empty()) continue;
      std::size_t widest = *kept[k].begin();
      std::size_t narrowest = pool_.span(widest).size();
      for (std::size_t d : kept[k]) {
        if (pool_.span(d).size() > pool_.span(widest).size()) widest = d;
        narrowest = std::min(narrowest, pool_.span(d).size());
      }
      out.push_back(SchedDomainLevel{.name = kinds[k].name,
                                     .span = static_cast<unsigned>(pool_.span(widest).size()),
                                     .min_span = static_cast<unsigned>(narrowest),
                                     .groups = groups_of(k, pool_.span(widest)),
                                     .domains = static_cast<unsigned>(kept[k].size()),
                                     .distance = kinds[k].distance,
                                     .rule = kinds[k].rule});
    }
    return out;
  }

 private:
  // The sched groups of the level-k domain `span`, built from its first CPU
  // as build_sched_groups()/build_overlap_sched_groups() do: walk the span,
  // each CPU not yet covered adds its child domain as a group.
  unsigned groups_of(std::size_t k, const Cpus& span) const {
    if (k == 0) return static_cast<unsigned>(span.size());
    std::set<int> covered;
    unsigned groups = 0;
    for (int cpu : span) {
      if (covered.count(cpu) != 0) continue;
      const Stack& stack = raw_.at(cpu);
      const Cpus& child = pool_.span(stack[std::min(k - 1, stack.size() - 1)]);
      covered.insert(child.begin(), child.end());
      ++groups;
    }
    return groups;
  }

  const Topology& t_;
  DomainMasks masks_;
  SpanPool pool_;
  std::map<int, Stack> raw_;
};

}  // namespace

std::vector<SchedDomainLevel> derive_sched_domains(const Topology& t) {
  if (t.online_cpus.empty()) return {};
  return Builder(t).build();
}

}  // namespace schedrig::topology
