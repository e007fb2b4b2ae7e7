#include "agent/sampler/starvation.h"

#include <fmt/format.h>

namespace schedrig::sampler {

StarvationDetector::StarvationDetector(StarvationThresholds thresholds, unsigned allowed_pus)
    : t_(thresholds), allowed_pus_(allowed_pus ? allowed_pus : 1) {}

bool StarvationDetector::rule_a(const DerivedSample& s, std::string& reason) {
  bool hit = false;
  if (pending_ > 0) {
    --pending_;
    if (s.idle_pct >= t_.idle_after_pct) {
      hit = true;
      reason = fmt::format("A: {} runnable >= {} allowed PUs, then {:.0f}% idle >= {:.0f}%", crowd_,
                           allowed_pus_, s.idle_pct, t_.idle_after_pct);
      pending_ = 0;
    }
  }
  const std::uint32_t others = s.runnable > 0 ? s.runnable - 1 : 0;
  if (others >= allowed_pus_ && t_.lookahead > 0) {
    pending_ = t_.lookahead;
    crowd_ = others;
  }
  return hit;
}

bool StarvationDetector::rule_b(const DerivedSample& s, std::string& reason) const {
  if (!s.wait_share_pct || *s.wait_share_pct < t_.wait_share_pct || s.idle_pct < t_.idle_pct) {
    return false;
  }
  reason = fmt::format("B: workload wait share {:.0f}% >= {:.0f}% while {:.0f}% idle >= {:.0f}%",
                       *s.wait_share_pct, t_.wait_share_pct, s.idle_pct, t_.idle_pct);
  return true;
}

void StarvationDetector::feed(DerivedSample& sample) {
  std::string a, b;
  const bool hit_a = rule_a(sample, a);
  const bool hit_b = rule_b(sample, b);
  sample.starved = hit_a || hit_b;
  sample.starved_reason = hit_a && hit_b ? a + "; " + b : a + b;
}

}  // namespace schedrig::sampler
