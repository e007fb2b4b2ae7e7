// `schedrig results --json` (docs/architecture.md "Results model").
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "host/store/records.h"

namespace schedrig::report {

// {"runs":[{"run_id","agent_id","hostname","kernel_release","pus","labels",
//   "plan","status","reason","started_at_ns","finished_at_ns",
//   "iterations":[{"case","variant","iteration","status","reason","cpus",
//     "started_at_ns","finished_at_ns",
//     "metrics":[{"name","value","unit","direction"}],"knobs":{},
//     "samples":{"count","starved_intervals",
//                "stats":[{"name","unit","mean","p95"}]},
//     "quiet_wait_s","quiet_gave_up"}]}]}
// Strings are strings, pus/iteration/*_ns integers, value a number (NaN
// dumps as null), labels/knobs objects of strings, plan the plan object.
// samples.count is 0 and stats empty when the iteration was not sampled;
// quiet_wait_s is seconds (a number), quiet_gave_up a bool.
// Runs and iterations keep the order given.
nlohmann::json results_json(const std::vector<store::RunRecord>& runs);

// One iteration's object as in results_json ("case", ..., "quiet_gave_up").
nlohmann::json iteration_json(const store::IterationRecord& it);

}  // namespace schedrig::report
