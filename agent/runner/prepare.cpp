#include "agent/runner/prepare.h"

#include "agent/runner/antagonist.h"

#include <fmt/format.h>

#include "agent/knobs/variant_knobs.h"
#include "agent/tools/tool_error.h"
#include "agent/workloads/resolve_case.h"
#include "agent/workloads/tool_case.h"
#include "common/plan/schedule.h"

namespace schedrig::runner {
namespace {

// An external tool's binary, probed now so a box without it (or with a
// version that lacks an option schedrig needs) refuses the plan.
void probe_case_tool(const PreparedCase& pc, const tools::ToolPaths& tools) {
  try {
    workloads::probe_tool(*pc.workload->tool, tools, pc.cpus);
  } catch (const tools::ToolArgsError& e) {
    throw PlanRejected(fmt::format("case '{}': {}", pc.name, e.what()),
                       schedrig::v1::ERROR_FACILITY_UNAVAILABLE, "workload", pc.workload->name);
  }
}

PreparedCase prepare_case(const schedrig::v1::Case& c, const topology::Topology& topo,
                          const tools::ToolPaths& tools) {
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
  if (out.workload->tool) probe_case_tool(out, tools);
  return out;
}

}  // namespace

std::vector<PreparedCase> prepare_cases(const schedrig::v1::Plan& plan,
                                        const topology::Topology& topo,
                                        const tools::ToolPaths& tools) {
  if (plan.cases_size() == 0) throw PlanRejected("plan has no cases");
  if (plan.iterations() == 0) throw PlanRejected("plan has 0 iterations");
  if (plan.duration_ns() == 0) throw PlanRejected("plan has a zero duration");
  if (plan.variants_size() == 0) throw PlanRejected("plan has no variants");
  const std::string too_long = schedule_size_problem(plan);  // never built, never a bad_alloc
  if (!too_long.empty()) throw PlanRejected("plan too long: " + too_long);
  std::vector<PreparedCase> out;
  for (const auto& c : plan.cases()) out.push_back(prepare_case(c, topo, tools));
  for (const auto& v : plan.variants()) {
    for (const PreparedCase& pc : out) {
      try {
        antagonist_cpus(v.antagonist(), pc.cpus);
      } catch (const std::runtime_error& e) {
        throw PlanRejected(fmt::format("variant '{}', case '{}': {}", v.name(), pc.name, e.what()));
      }
    }
  }
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
