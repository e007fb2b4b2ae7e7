// A plan's variants as knob settings (docs/architecture.md "Plans, variants,
// iterations"): every variant sets every knob that any variant names; a knob
// a variant leaves out gets its original (value "").
#pragma once

#include <vector>

#include "agent/knobs/knob.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::knobs {

// Settings for plan.variants(index), covering the union of all variants'
// knobs in a fixed order (features, sysctls, tunables; by name). Throws
// KnobError for a malformed name or value, naming the variant.
std::vector<KnobSetting> variant_settings(const schedrig::v1::Plan& plan, int index);

}  // namespace schedrig::knobs
