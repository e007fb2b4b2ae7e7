// A plan's cases against an agent's topology (host/plan_check/plan_check.h).
#pragma once

#include "agent/topology/topology.h"
#include "host/plan_check/plan_blame.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::plan_check {

// Resolves every case of `plan` on `topo` as the agent will
// (workloads::resolve_case). Throws PlanError through `blame` naming the
// case's workload, parameter, membind or placement key and its value.
void check_cases(const schedrig::v1::Plan& plan, const topology::Topology& topo,
                 const PlanBlame& blame);

}  // namespace schedrig::plan_check
