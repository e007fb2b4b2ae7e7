// A plan case checked against a machine's topology: its workload, its full
// parameters and its PUs (docs/architecture.md "Plan files (YAML)"). The
// agent's runner prepares cases with it and the host's plan check
// (host/plan_check) checks plans with it, so both refuse the same case with
// the same words.
#pragma once

#include <stdexcept>
#include <string>

#include "agent/placement/placement.h"
#include "agent/topology/topology.h"
#include "agent/workloads/registry.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::workloads {

// A case that can run: its registry entry, parameters with defaults filled
// in (the case's `membind:` key included as the parameter membind), and its
// resolved placement.
struct ResolvedCase {
  const WorkloadInfo* workload = nullptr;
  Params params;
  placement::Placement placement;
};

// The part of a case an error is about: its `workload`, one of its `params`
// (or the `membind` key), or its `placement`.
enum class CasePart { kWorkload, kParams, kPlacement };

// A case that cannot run on the topology. what() is the ParamError's or
// PlacementError's own ("fork: parameter 'fork_max' = '0': must be an integer
// in [1, 16000]"); part() and param() say which of the case's keys is at
// fault (param() "" when no single parameter is).
class CaseError : public std::invalid_argument {
 public:
  CaseError(CasePart part, std::string param, const std::string& message)
      : std::invalid_argument(message), part_(part), param_(std::move(param)) {}
  CasePart part() const { return part_; }
  const std::string& param() const { return param_; }

 private:
  CasePart part_;
  std::string param_;
};

// Finds the case's workload, fills in default parameters, resolves its
// placement on `topo`, checks a membind parameter against `topo`'s nodes
// (placement::parse_membind: a node that exists and has memory) and
// validates the parameters for that many PUs, in that order. Throws
// CaseError at the first problem.
ResolvedCase resolve_case(const schedrig::v1::Case& c, const topology::Topology& topo);

}  // namespace schedrig::workloads
