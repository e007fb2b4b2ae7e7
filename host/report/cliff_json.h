// The cliff of a comparison for programs (analyze --json; compare --json may
// use it too): the fields of analysis::Cliff (host/analysis/verdict.h,
// docs/statistics.md "The cliff"), NaN as null.
#pragma once

#include <nlohmann/json.hpp>

#include "host/analysis/verdict.h"

namespace schedrig::report {

// {"tested","decidable","below","above","p_below","p_above",
//  "significant_below","significant_above","level","level_change_pct","words"}
// `words` is describe_cliff(c) ("" when nothing to say).
nlohmann::json cliff_json(const analysis::Comparison& c);

}  // namespace schedrig::report
