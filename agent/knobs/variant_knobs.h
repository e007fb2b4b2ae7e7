// A plan's variants as knob settings (docs/architecture.md "Plans, variants,
// iterations"): every variant sets every knob that any variant names; a knob
// a variant leaves out gets its original (value "").
#pragma once

#include <string>
#include <vector>

#include "agent/knobs/knob.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::knobs {

// Settings for plan.variants(index), covering the union of all variants'
// knobs in a fixed order (features, sysctls, tunables; by name). Throws
// KnobError for a malformed name or value, naming the variant.
std::vector<KnobSetting> variant_settings(const schedrig::v1::Plan& plan, int index);

// One knob as a variant writes it.
struct WrittenKnob {
  KnobSetting setting;  // a feature "NO_X" as X = "off"
  std::string key;      // its plan key, as PlanLines names it: "variants[1].features[0]",
                        // "variants[1].sysctl.kernel.numa_balancing", "variants[1].debugfs.NAME"
  std::string text;     // as written: "NO_X", or the sysctl's or tunable's value
};

// The knobs plan.variants(index) itself names, in plan order, so a
// refusal can quote the plan's token and key. Throws KnobError for a
// malformed name or value, naming the variant.
std::vector<WrittenKnob> settings_as_written(const schedrig::v1::Plan& plan, int index);

}  // namespace schedrig::knobs
