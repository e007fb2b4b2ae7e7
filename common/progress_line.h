// One line per finished iteration, as `schedrig lab` and `schedrig-agent
// run` print them: "[3/10] fork-all / baseline / iteration 2: 8,216 ops/s".
#pragma once

#include <cstddef>
#include <string>

#include "schedrig/v1/result.pb.h"

namespace schedrig {

// `done` of `planned` iterations; the primary (first) metric, or FAILED and
// the reason.
std::string progress_line(std::size_t done, std::size_t planned,
                          const schedrig::v1::IterationResult& r);

}  // namespace schedrig
