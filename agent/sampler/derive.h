// DerivedSample (sample.h) from two consecutive snapshots.
#pragma once

#include <vector>

#include "agent/sampler/sample.h"
#include "agent/sampler/snapshot.h"

namespace schedrig::sampler {

struct DeriveContext {
  std::vector<int> cpus;        // watched PUs; empty = every PU in both snapshots
  std::vector<int> pu_to_node;  // PU -> node; empty = no busy_per_node
};

// Only CPUs present in both snapshots count (a CPU that went offline in
// between has no line in one of them). Counters that decreased count as 0
// (counter_delta.h). Optional fields stay empty when a source is missing in
// either snapshot or the ratio has no denominator (no balances, no task
// time). The starvation fields are left for StarvationDetector.
DerivedSample derive(const Snapshot& prev, const Snapshot& cur, const DeriveContext& ctx);

}  // namespace schedrig::sampler
