#include "agent/runner/prepare.h"

#include <fmt/format.h>

#include "agent/knobs/variant_knobs.h"
#include "agent/workloads/resolve_case.h"
#include "common/plan/schedule.h"

namespace schedrig::runner {
namespace {

PreparedCase prepare_case(const schedrig::v1::Case& c, const topology::Topology& topo) {
  PreparedCase out;
  out.name = c.name();
  try {
    workloads::ResolvedCase resolved = workloads::resolve_case(c, topo);
    out.workload = resolved.workload;
    out.params = std::move(resolved.params);
    out.placement = std::move(resolved.placement);
    out.cpus = out.placement.cpus;
  } catch (const workloads::CaseError& e) {
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
  const std::string too_long = schedule_size_problem(plan);  // never built, never a bad_alloc
  if (!too_long.empty()) throw PlanRejected("plan too long: " + too_long);
  std::vector<PreparedCase> out;
  for (const auto& c : plan.cases()) out.push_back(prepare_case(c, topo));
  return out;
}

void check_variants(const schedrig::v1::Plan& plan, const knobs::KnobController& knobs) {
  try {
    // Each variant's own knobs as it wrote them (together: the union), so a
    // refusal quotes the plan's token ("feature NO_X", not the original it
    // would restore) and its key.
    for (int i = 0; i < plan.variants_size(); ++i) {
      for (const knobs::WrittenKnob& k : knobs::settings_as_written(plan, i)) {
        try {
          knobs.check({k.setting});
        } catch (const knobs::KnobUnavailable& e) {
          throw PlanRejected(fmt::format("variant '{}': {}", plan.variants(i).name(), e.what()),
                             schedrig::v1::ERROR_FACILITY_UNAVAILABLE, k.key, k.text);
        }
      }
    }
  } catch (const knobs::KnobError& e) {
    throw PlanRejected(e.what());
  }
}

}  // namespace schedrig::runner
