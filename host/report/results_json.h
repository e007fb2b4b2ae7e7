// `schedrig results --json` (DESIGN.md "Results model").
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "host/store/records.h"

namespace schedrig::report {

// {"runs":[{"run_id","agent_id","hostname","kernel_release","pus","labels",
//   "plan","status","reason","started_at_ns","finished_at_ns",
//   "iterations":[{"case","variant","iteration","status","reason","cpus",
//     "started_at_ns","finished_at_ns",
//     "metrics":[{"name","value","unit","direction"}],"knobs":{}}]}]}
// Strings are strings, pus/iteration/*_ns integers, value a number (NaN
// dumps as null), labels/knobs objects of strings, plan the plan object.
// Runs and iterations keep the order given.
nlohmann::json results_json(const std::vector<store::RunRecord>& runs);

}  // namespace schedrig::report
