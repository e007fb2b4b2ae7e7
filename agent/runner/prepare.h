// Checking a plan against this agent before any iteration runs: every
// workload known, every parameter valid, every placement resolvable.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "agent/placement/placement.h"
#include "agent/topology/topology.h"
#include "agent/workloads/registry.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::runner {

// The plan cannot run on this agent. what() names the case or variant and
// the reason ("case 'fork-all': fork: parameter 'fork_max' = '0': ...").
class PlanRejected : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A case ready to run: its workload, full parameters, and PUs.
struct PreparedCase {
  std::string name;
  const workloads::WorkloadInfo* workload = nullptr;
  workloads::Params params;  // defaults filled in
  std::vector<int> cpus;     // resolved placement: placement.cpus
  // The resolved placement, with split:K's message and worker PUs.
  placement::Placement placement;
};

// Validates every case of `plan` on `topo`; index i of the result is
// plan.cases(i). Variants that set kernel knobs are refused until knob
// control exists. Throws PlanRejected.
std::vector<PreparedCase> prepare_cases(const schedrig::v1::Plan& plan,
                                        const topology::Topology& topo);

}  // namespace schedrig::runner
