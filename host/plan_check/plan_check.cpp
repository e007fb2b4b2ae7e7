#include "host/plan_check/plan_check.h"

#include <fmt/format.h>

#include "agent/topology/topology.h"
#include "host/plan_check/case_check.h"
#include "host/plan_check/knob_check.h"

namespace schedrig::plan_check {
namespace {

// The agent's topology as the placement code takes it. Throws PlanError
// (no key) when the agent sent none or a malformed one.
topology::Topology agent_topology(const schedrig::v1::Topology& topo, const std::string& file,
                                  const std::string& agent_id) {
  topology::Topology t;
  try {
    t = topology::topology_from_proto(topo);
  } catch (const topology::TopologyError& e) {
    throw PlanError(file, 0, "", "", fmt::format("agent {}: {}", agent_id, e.what()));
  }
  if (t.allowed_cpus.empty()) {
    throw PlanError(file, 0, "", "",
                    fmt::format("agent {} has not reported its topology (no allowed PUs), so its "
                                "placements cannot be checked",
                                agent_id));
  }
  return t;
}

}  // namespace

void check_plan_for_agent(const schedrig::v1::Plan& plan, const PlanLines& lines,
                          const std::string& file, const std::string& agent_id,
                          const schedrig::v1::Hello& hello, const schedrig::v1::Topology& topo) {
  const PlanBlame blame{lines, file, agent_id};
  check_cases(plan, agent_topology(topo, file, agent_id), blame);
  check_knobs(plan, hello, blame);
}

}  // namespace schedrig::plan_check
