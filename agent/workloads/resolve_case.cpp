#include "agent/workloads/resolve_case.h"

#include <fmt/format.h>

#include "agent/placement/membind.h"
#include "agent/workloads/tool_case.h"

namespace schedrig::workloads {
namespace {

const WorkloadInfo& workload_of(const schedrig::v1::Case& c) {
  try {
    return find_workload(c.workload());
  } catch (const ParamError& e) {
    throw CaseError(CasePart::kWorkload, "", e.what());
  }
}

Params params_of(const schedrig::v1::Case& c, const WorkloadInfo& w) {
  Params params(c.params().begin(), c.params().end());
  if (!c.membind().empty()) {
    const auto [given, added] = params.emplace("membind", c.membind());
    if (!added) {
      throw CaseError(CasePart::kParams, "membind",
                      fmt::format("membind is given twice, as the case's membind '{}' and as "
                                  "params.membind '{}'; keep one",
                                  c.membind(), given->second));
    }
  }
  try {
    return with_defaults(w, params);
  } catch (const ParamError& e) {
    throw CaseError(CasePart::kParams, e.param(), e.what());
  }
}

placement::Placement placement_of(const schedrig::v1::Case& c, const topology::Topology& topo) {
  try {
    return placement::resolve_placement(c.placement(), topo);
  } catch (const placement::PlacementError& e) {
    throw CaseError(CasePart::kPlacement, "", e.what());
  }
}

// A membind the workload takes must name a node of `topo` with memory
// (placement::parse_membind), so a plan is refused at check time rather than
// every iteration failing with EINVAL.
void check_membind(const Params& params, const topology::Topology& topo) {
  const auto it = params.find("membind");
  if (it == params.end()) return;
  try {
    placement::parse_membind(it->second, topo);
  } catch (const placement::PlacementError& e) {
    throw CaseError(CasePart::kParams, "membind", e.what());
  }
}

}  // namespace

ResolvedCase resolve_case(const schedrig::v1::Case& c, const topology::Topology& topo) {
  ResolvedCase out;
  out.workload = &workload_of(c);
  out.params = params_of(c, *out.workload);
  out.placement = placement_of(c, topo);
  check_membind(out.params, topo);
  try {
    out.workload->validate(out.params, out.placement.cpus.size());
    if (out.workload->tool) {
      check_tool_case(*out.workload->tool, *out.workload, out.params, out.placement.cpus);
    }
  } catch (const ParamError& e) {
    throw CaseError(CasePart::kParams, e.param(), e.what());
  }
  return out;
}

}  // namespace schedrig::workloads
