// Pooled latency percentiles (compare::PooledLatency) for programs and
// people: the "pooled_percentiles" array of compare --json and the
// "pooled latency percentiles" section of compare's table.
#pragma once

#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/compare/compare_table.h"

namespace schedrig::report {

// [{"case","variant" (null within a run),"histogram","unit","pooled":true,
//   "sides":[{"label","run" (the side's first),"runs" (all of
//   them),"variant","iterations","samples",
//             "p50","p90","p99","p99_9"}]}]  (NaN as null)
nlohmann::json pooled_json(const std::vector<compare::PooledLatency>& pooled);

// "pooled latency percentiles (every kept iteration's histogram merged):"
// then per case, histogram and side a line "  CASE HISTOGRAM  SIDE  p50 p90
// p99 p99.9 UNIT  (N iterations, S samples)". Nothing when `pooled` is empty.
void print_pooled_text(const std::vector<compare::PooledLatency>& pooled, std::ostream& out);

}  // namespace schedrig::report
