// Adaptive group testing for `schedrig bisect-knobs` (docs/bisect-knobs.md
// "Group testing"): which of n candidate units (a sched feature flipped, a
// sysctl or tunable set to one value, or a bundle of features that only work
// together) change the metric, without probing each one alone.
//
// The units are split into groups of at most `group_size` (units that set
// the same knob never share a group); each group is probed with all its
// units flipped together. A group without effect has nothing that acts
// alone or together inside it. A group with an effect is split in halves
// and each half probed, down to single units (Hwang, "A method for
// detecting all defective members in a population by group testing", JASA
// 1972). When a group has an effect but neither half has, the group is
// probed again: an effect that does not repeat was a false alarm; one that
// does needs units from both halves together: an interaction, narrowed by
// binary search to the units each half needs given the other's. Then a residual
// pass probes every unit not yet in a finding, all together (split only by
// knob), the same way: an effect there needs units the first pass kept
// apart (an interaction across groups or halves); up to 4 residual passes,
// until one shows no effect. After each pass, every new finding is probed
// once more and kept only when its effect repeats in the same direction
// (a dropped one goes back into the residual): each probe has
// a false alarm at rate alpha, and dozens of probes would otherwise name a
// knob that does nothing. A probe is one sequential A/B run
// (common/stats/sequential.h); "unsettled" counts as no effect found.
//
// Probes, n units, g = min(group_size, n): ceil(n / g) for the groups, about
// 2 log2(g) per unit that acts alone, about 2 log2(n) + 4 per interacting
// pair, one per residual pass (more when knobs repeat), and one per
// finding to confirm it (docs/bisect-knobs.md).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/stats/sequential.h"

namespace schedrig::bisect {

// One candidate: what it flips is the caller's business (`index` into its
// list); `knob` keeps units that set the same knob apart.
struct Unit {
  std::string name;  // "NO_NI_RANDOM", "kernel.numa_balancing=0"
  std::string knob;  // "sched_features:NI_RANDOM", "kernel.numa_balancing"
};

// Probes the units with these indices flipped together, as found otherwise.
using Probe = std::function<stats::SequentialLook(const std::vector<int>& units)>;

// A set of units that changes the metric: one unit, or an interaction.
struct Finding {
  std::vector<int> units;
  stats::SequentialLook look;          // the probe of exactly these units
  stats::SequentialLook confirmation;  // the same probe again, on fresh iterations
  bool interaction = false;            // the units matter only together
};

struct SearchResult {
  std::vector<Finding> findings;   // in the order found
  std::vector<int> cleared;        // units in no finding (tried without effect)
  std::vector<std::string> notes;  // "group A+B+C: +40% [..], its halves +10% and +5%: ..."
  int probes = 0;
};

// Runs the search. group_size >= 1 (1: every unit alone). Throws
// std::invalid_argument for group_size < 1.
SearchResult group_search(const std::vector<Unit>& units, int group_size, const Probe& probe);

// The groups group_search starts from: units in order, at most group_size
// each, no two with the same knob in one group.
std::vector<std::vector<int>> initial_groups(const std::vector<Unit>& units, int group_size);

}  // namespace schedrig::bisect
