// Where a plan check failed, as a PlanError naming the plan's file, the
// key's line and the agent (host/plan_check/plan_check.h).
#pragma once

#include <string>

#include "common/plan/plan_yaml.h"

namespace schedrig::plan_check {

// The plan being checked and the agent it is checked for.
struct PlanBlame {
  const PlanLines& lines;
  const std::string& file;
  const std::string& agent_id;

  // Throws PlanError(file, lines.line_of(key), key, value,
  // "WHY (agent ID)"), or "WHY (agent ID: DETAIL)" when `detail` is given;
  // `kind` as PlanError's (kUnreachable: a knob the agent cannot change).
  [[noreturn]] void fail(const std::string& key, const std::string& value, const std::string& why,
                         const std::string& detail = "",
                         ErrorKind kind = ErrorKind::kUsage) const;
};

}  // namespace schedrig::plan_check
