#include "agent/runner/zero_work.h"

#include <fmt/format.h>

namespace schedrig::runner {

std::string zero_work_reason(const workloads::WorkloadResult& r) {
  if (r.metrics.empty() || r.metrics.front().value != 0) return "";
  std::string unit = r.metrics.front().unit;
  const auto slash = unit.rfind("/s");
  if (slash == std::string::npos || slash + 2 != unit.size()) return "";  // not a rate
  unit.resize(slash);
  return fmt::format("no work completed in the measured window (0 {})", unit);
}

}  // namespace schedrig::runner
