// The body of POST /api/v1/nightly (docs/architecture.md "HTTP API"): the
// night's summary as `schedrig nightly` writes OUT/summary.json
// (nightly::summary_json). serve keeps each agent and plan's latest rows
// for /metrics (host/metrics/server_metrics.h).
#pragma once

#include <string>

#include "host/store/records.h"

namespace schedrig::control {

inline constexpr std::size_t kMaxNightRows = 10000;
inline constexpr std::size_t kMaxNightFieldBytes = 256;

// The night of `body`, its rows' verdict marks as numbers ("(R)" -1, ""
// 0, "(I)" 1, "?" 2). Throws ApiError(400) naming what is wrong: not JSON,
// not an object, no "night" string, "rows" not an array or over
// kMaxNightRows, a row without one of agent/plan/case/variant/metric/
// kernel as a string of at most kMaxNightFieldBytes without control
// characters, an unknown verdict mark, a change_pct that is not a number
// or null. received_at_ns and submitted_by are left for the caller.
store::NightRecord parse_night_summary(const std::string& body);

}  // namespace schedrig::control
