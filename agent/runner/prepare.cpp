#include "agent/runner/prepare.h"

#include <fmt/format.h>

#include "agent/knobs/variant_knobs.h"
#include "agent/placement/placement.h"

namespace schedrig::runner {
namespace {

PreparedCase prepare_case(const schedrig::v1::Case& c, const topology::Topology& topo) {
  PreparedCase out;
  out.name = c.name();
  try {
    out.workload = &workloads::find_workload(c.workload());
    workloads::Params params(c.params().begin(), c.params().end());
    // A case's `membind:` key is the workload's membind parameter (kv).
    if (!c.membind().empty()) params.emplace("membind", c.membind());
    out.params = workloads::with_defaults(*out.workload, params);
    out.placement = placement::resolve_placement(c.placement(), topo);
    out.cpus = out.placement.cpus;
    out.workload->validate(out.params, out.cpus.size());
  } catch (const std::invalid_argument& e) {
    throw PlanRejected(fmt::format("case '{}': {}", c.name(), e.what()));
  }
  return out;
}

}  // namespace

std::vector<PreparedCase> prepare_cases(const schedrig::v1::Plan& plan,
                                        const topology::Topology& topo) {
  if (plan.cases_size() == 0) throw PlanRejected("plan has no cases");
  if (plan.iterations() == 0) throw PlanRejected("plan has 0 iterations");
  if (plan.duration_ns() == 0) throw PlanRejected("plan has a zero duration");
  if (plan.variants_size() == 0) throw PlanRejected("plan has no variants");
  std::vector<PreparedCase> out;
  for (const auto& c : plan.cases()) out.push_back(prepare_case(c, topo));
  return out;
}

void check_variants(const schedrig::v1::Plan& plan, const knobs::KnobController& knobs) {
  try {
    for (int i = 1; i < plan.variants_size(); ++i) knobs::variant_settings(plan, i);  // validates
    if (plan.variants_size() > 0) knobs.check(knobs::variant_settings(plan, 0));      // the union
  } catch (const knobs::KnobUnavailable& e) {
    throw PlanRejected(e.what(), schedrig::v1::ERROR_FACILITY_UNAVAILABLE);
  } catch (const knobs::KnobError& e) {
    throw PlanRejected(e.what());
  }
}

}  // namespace schedrig::runner
