#include "host/plan_check/case_check.h"

#include <fmt/format.h>

#include "agent/workloads/resolve_case.h"

namespace schedrig::plan_check {
namespace {

// The plan's value at `map[name]`, "" when the plan leaves it out.
std::string value_in(const google::protobuf::Map<std::string, std::string>& map,
                     const std::string& name) {
  const auto it = map.find(name);
  return it == map.end() ? "" : it->second;
}

// The key and value a parameter error of case `index` is about: the
// `membind:` key for membind when the case uses it, else its params entry
// (or params as a whole when no single parameter is at fault).
[[noreturn]] void fail_params(const schedrig::v1::Case& c, int index, const workloads::CaseError& e,
                              const PlanBlame& blame) {
  const std::string key = fmt::format("cases[{}]", index);
  if (e.param().empty()) blame.fail(key + ".params", "", e.what());
  if (e.param() == "membind" && !c.membind().empty())
    blame.fail(key + ".membind", c.membind(), e.what());
  blame.fail(fmt::format("{}.params.{}", key, e.param()), value_in(c.params(), e.param()),
             e.what());
}

void check_case(const schedrig::v1::Case& c, int index, const topology::Topology& topo,
                const PlanBlame& blame) {
  try {
    workloads::resolve_case(c, topo);
  } catch (const workloads::CaseError& e) {
    switch (e.part()) {
      case workloads::CasePart::kWorkload:
        blame.fail(fmt::format("cases[{}].workload", index), c.workload(), e.what());
      case workloads::CasePart::kPlacement:
        blame.fail(fmt::format("cases[{}].placement", index), c.placement(), e.what());
      case workloads::CasePart::kParams:
        fail_params(c, index, e, blame);
    }
  }
}

}  // namespace

void check_cases(const schedrig::v1::Plan& plan, const topology::Topology& topo,
                 const PlanBlame& blame) {
  for (int i = 0; i < plan.cases_size(); ++i) check_case(plan.cases(i), i, topo, blame);
}

}  // namespace schedrig::plan_check
