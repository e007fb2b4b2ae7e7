#include "host/plan_check/plan_blame.h"

#include <fmt/format.h>

namespace schedrig::plan_check {

void PlanBlame::fail(const std::string& key, const std::string& value, const std::string& why,
                     const std::string& detail, ErrorKind kind) const {
  const std::string agent = detail.empty() ? fmt::format("agent {}", agent_id)
                                           : fmt::format("agent {}: {}", agent_id, detail);
  throw PlanError(file, lines.line_of(key), key, value, fmt::format("{} ({})", why, agent),
                  kind);
}

}  // namespace schedrig::plan_check
