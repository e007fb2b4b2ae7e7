#include "host/lab/run_deadline.h"

#include <algorithm>

#include "common/plan/quiet.h"

namespace schedrig::lab {

double run_allowed_s(const schedrig::v1::Plan& plan, std::size_t slots) {
  const double quiet_s = std::max(0.0, plan.quiet().timeout_s());
  const double attempt_s =
      static_cast<double>(plan.duration_ns() + plan.warmup_ns() + plan.cooldown_ns()) / 1e9 +
      quiet_s;
  const double slot_s = attempt_s * (1 + quiet_retries(plan.quiet()));
  return std::min(2 * slot_s * static_cast<double>(slots) + 60, 10 * 365 * 86400.0);
}

}  // namespace schedrig::lab
