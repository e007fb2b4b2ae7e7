// The starvation signature of the NI_RANDOM regression (seed 000: "one
// second r=128 runnable, the next r=0 and 85% idle"; runnable threads
// waiting 39-59% of their time). docs/sampling.md explains the thresholds.
#pragma once

#include <string>

#include "agent/sampler/sample.h"
#include "agent/sampler/sampler.h"

namespace schedrig::sampler {

// Fed DerivedSamples in time order; sets `starved` and `starved_reason` on
// the interval that completes a pattern:
//  rule A: others_runnable >= allowed_pus in interval i (others_runnable =
//          runnable - 1: procs_running counts the sampler thread reading
//          /proc/stat), then idle_pct >= idle_after_pct in one of the next
//          `lookahead` intervals: flagged on that idle interval, so it works
//          live without holding samples back;
//  rule B: wait_share_pct >= wait_share_pct while idle_pct >= idle_pct:
//          flagged on the interval itself.
// All comparisons are inclusive (a value at the threshold counts).
class StarvationDetector {
 public:
  StarvationDetector(StarvationThresholds thresholds, unsigned allowed_pus);
  void feed(DerivedSample& sample);

 private:
  bool rule_a(const DerivedSample& s, std::string& reason);
  bool rule_b(const DerivedSample& s, std::string& reason) const;

  StarvationThresholds t_;
  unsigned allowed_pus_;
  int pending_ = 0;          // intervals left in which an idle one completes rule A
  std::uint32_t crowd_ = 0;  // others_runnable of the interval that armed rule A
};

}  // namespace schedrig::sampler
