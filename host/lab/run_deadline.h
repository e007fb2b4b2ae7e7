// How long `lab` lets its run take before aborting it (docs/architecture.md
// "Command lines"): twice the longest the plan can take, plus a minute.
#pragma once

#include <cstddef>

#include "schedrig/v1/plan.pb.h"

namespace schedrig::lab {

// Seconds allowed for `slots` iterations of `plan`: 2 x (warm-up + duration
// + cool-down + the quiet check's timeout_s) x (1 + quiet.retries) per slot,
// + 60 s, capped at ten years. Each slot may wait up to timeout_s for a
// quiet box and run again when disturbed (common/plan/quiet.h), so a busy
// box does not make the lab abort its own run.
double run_allowed_s(const schedrig::v1::Plan& plan, std::size_t slots);

}  // namespace schedrig::lab
