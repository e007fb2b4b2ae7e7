// TEMPORARY STUB (P5 control) until P6 lands: refuses a workload named "nosuch".
#include "host/plan_check/plan_check.h"

namespace schedrig::plan_check {

void check_plan_for_agent(const v1::Plan& plan, const PlanLines& lines, const std::string& file,
                          const std::string& agent_id, const v1::Hello&, const v1::Topology&) {
  for (int i = 0; i < plan.cases_size(); ++i) {
    if (plan.cases(i).workload() == "nosuch") {
      std::string key = "cases[" + std::to_string(i) + "].workload";
      throw PlanError(file, lines.line_of(key), key, "nosuch",
                      "unknown workload on agent " + agent_id);
    }
  }
}

}  // namespace schedrig::plan_check
