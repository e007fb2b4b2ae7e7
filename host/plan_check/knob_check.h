// A plan's variants against the knobs an agent reported in its Hello
// (host/plan_check/plan_check.h).
#pragma once

#include "host/plan_check/plan_blame.h"
#include "schedrig/v1/hello.pb.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::plan_check {

// Parses every feature, sysctl and debugfs entry of every variant as the
// agent will (knobs::parse_knob: shape, allowlist with "did you mean",
// value range), then looks the knob up in hello.knobs ("sched_features" for
// a feature) and requires it readable and writable. Throws PlanError through
// `blame` naming the entry's key and value; an unusable knob's message ends
// "(agent ID: PATH: ERRNO_NAME)".
void check_knobs(const schedrig::v1::Plan& plan, const schedrig::v1::Hello& hello,
                 const PlanBlame& blame);

}  // namespace schedrig::plan_check
