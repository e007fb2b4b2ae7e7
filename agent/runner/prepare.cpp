#include "agent/runner/prepare.h"

#include <fmt/format.h>

#include "agent/placement/placement.h"

namespace schedrig::runner {
namespace {

PreparedCase prepare_case(const schedrig::v1::Case& c, const topology::Topology& topo) {
  PreparedCase out;
  out.name = c.name();
  try {
    out.workload = &workloads::find_workload(c.workload());
    out.params = workloads::with_defaults(*out.workload,
                                          workloads::Params(c.params().begin(), c.params().end()));
    out.placement = placement::resolve_placement(c.placement(), topo);
    out.cpus = out.placement.cpus;
    out.workload->validate(out.params, out.cpus.size());
  } catch (const std::invalid_argument& e) {
    throw PlanRejected(fmt::format("case '{}': {}", c.name(), e.what()));
  }
  if (!c.membind().empty()) {
    throw PlanRejected(fmt::format("case '{}': membind '{}' is not supported by this agent yet",
                                   c.name(), c.membind()));
  }
  return out;
}

void check_variant(const schedrig::v1::Variant& v) {
  if (v.features_size() || v.sysctl_size() || v.debugfs_size()) {
    throw PlanRejected(fmt::format(
        "variant '{}' sets kernel knobs; this agent version cannot change knobs yet", v.name()));
  }
}

}  // namespace

std::vector<PreparedCase> prepare_cases(const schedrig::v1::Plan& plan,
                                        const topology::Topology& topo) {
  if (plan.cases_size() == 0) throw PlanRejected("plan has no cases");
  if (plan.iterations() == 0) throw PlanRejected("plan has 0 iterations");
  if (plan.duration_ns() == 0) throw PlanRejected("plan has a zero duration");
  for (const auto& v : plan.variants()) check_variant(v);
  std::vector<PreparedCase> out;
  for (const auto& c : plan.cases()) out.push_back(prepare_case(c, topo));
  return out;
}

}  // namespace schedrig::runner
