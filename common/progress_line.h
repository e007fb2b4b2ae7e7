// One line per finished iteration, as `schedrig lab` and `schedrig-agent
// run` print them: "[3/10] fork-all / baseline / iteration 2: 8,216 ops/s".
#pragma once

#include <cstddef>
#include <string>

#include "schedrig/v1/result.pb.h"

namespace schedrig {

// What a progress line adds after the value: " (box not quiet after 10 s;
// ran anyway)" when the quiet-box check gave up, "; 2 starved intervals"
// when the sampler flagged any; "" otherwise.
std::string iteration_flags(bool quiet_gave_up, double quiet_wait_s, unsigned starved_intervals);

// `done` of `planned` iterations; the primary (first) metric, or FAILED and
// the reason; then iteration_flags.
std::string progress_line(std::size_t done, std::size_t planned,
                          const schedrig::v1::IterationResult& r);

}  // namespace schedrig
