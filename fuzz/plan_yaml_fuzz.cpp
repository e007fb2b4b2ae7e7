// fuzz_plan_yaml: the bytes as a plan file, parse_plan_yaml
// (common/plan/plan_yaml.h) with its key lines. Its contract is to throw
// PlanError and nothing else on a bad plan: any other exception escapes and
// is a finding. A plan it accepts has at least one case and variant.
#include <string>

#include "common/plan/plan_yaml.h"
#include "fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    schedrig::PlanLines lines;
    const schedrig::v1::Plan plan = schedrig::parse_plan_yaml(text, "fuzz.yaml", &lines);
    schedrig::fuzz::require(plan.cases_size() > 0, "an accepted plan has a case");
    schedrig::fuzz::require(plan.variants_size() > 0, "an accepted plan has a variant");
  } catch (const schedrig::PlanError& e) {
    schedrig::fuzz::require(e.file() == "fuzz.yaml", "a plan error names the plan's source");
  }
  return 0;
}
