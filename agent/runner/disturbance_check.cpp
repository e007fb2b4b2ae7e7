#include "agent/runner/disturbance_check.h"

#include <fmt/format.h>

#include "common/plan/quiet.h"

namespace schedrig::runner {

std::string quiet_gave_up_reason(const sampler::QuietResult& quiet, unsigned max_runnable) {
  return fmt::format("quiet check gave up after {:.3g} s (runnable {} > {})", quiet.waited_s,
                     quiet.last_runnable, max_runnable);
}

sampler::DisturbanceLimits disturbance_limits(const schedrig::v1::QuietCheck& q) {
  return {static_cast<double>(q.max_runnable()), quiet_other_cpu_pct(q)};
}

void mark_disturbed(const schedrig::v1::QuietCheck& q, const std::string& quiet_reason,
                    const sampler::WindowLoad& load, schedrig::v1::IterationResult& out) {
  if (!quiet_disturbance(q)) return;
  const std::string window_reason = sampler::disturbance_reason(load, disturbance_limits(q));
  if (quiet_reason.empty() && window_reason.empty()) return;
  out.set_disturbed(true);
  out.set_disturbed_reason(quiet_reason.empty()    ? window_reason
                           : window_reason.empty() ? quiet_reason
                                                   : quiet_reason + "; " + window_reason);
}

}  // namespace schedrig::runner
