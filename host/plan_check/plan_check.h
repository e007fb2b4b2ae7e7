// TEMPORARY STUB (P5 control) until P6 lands: the spec's interface.
#pragma once

#include <string>

#include "common/plan/plan_yaml.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::plan_check {

void check_plan_for_agent(const v1::Plan& plan, const PlanLines& lines, const std::string& file,
                          const std::string& agent_id, const v1::Hello& hello,
                          const v1::Topology& topo);

}  // namespace schedrig::plan_check
