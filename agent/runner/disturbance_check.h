// Marking an iteration disturbed (issue #14; docs/sampling.md "Disturbed
// iterations"): its quiet-box check gave up, or the sampler saw other work
// in its measured window. The runner retries a disturbed iteration up to
// quiet.retries times and records the last attempt.
#pragma once

#include <string>

#include "agent/sampler/disturbance.h"
#include "agent/sampler/sampler.h"
#include "schedrig/v1/plan.pb.h"
#include "schedrig/v1/result.pb.h"

namespace schedrig::runner {

// "quiet check gave up after 10 s (runnable 3 > 1)".
std::string quiet_gave_up_reason(const sampler::QuietResult& quiet, unsigned max_runnable);

// The limits `q` sets (quiet.max_runnable, quiet.other_cpu_pct).
sampler::DisturbanceLimits disturbance_limits(const schedrig::v1::QuietCheck& q);

// Sets out.disturbed and out.disturbed_reason from `quiet_reason` (the quiet
// check's, "" when it did not give up) and the window's `load`, both joined
// by "; " when both hold. Nothing when quiet.disturbance is false.
void mark_disturbed(const schedrig::v1::QuietCheck& q, const std::string& quiet_reason,
                    const sampler::WindowLoad& load, schedrig::v1::IterationResult& out);

}  // namespace schedrig::runner
