// Whether a case of one run may be compared with the same-named case of
// another (`compare --against`, docs/statistics.md "What is compared"): the
// same workload, parameters, placement (and memory binding), iteration
// timing (duration, warm-up, cool-down), the same
// cpulist on which its iterations ran and the same PU count. Definitions come
// from each RunRecord::plan (common/plan/plan_json), cpulists from
// IterationRecord::cpus, PU counts from RunRecord::pus.
#pragma once

#include <string>
#include <vector>

#include "host/compare/compare_table.h"
#include "host/store/records.h"

namespace schedrig::compare {

// What differs in `case_name` from `reference` to `run`, each as
// "WHAT: A -> B" ("workload: fork -> kv", "params.workers: 4 -> 8",
// "placement: all -> cpulist:0-3", "duration_s: 0.5 -> 2" (also warmup_s,
// cooldown_s), "cpulist: 0-3 -> 0-7", "PUs: 4 -> 8");
// a parameter one side lacks shows as "-". A cpulist or PU count a run does
// not know ("" or 0) is not compared. Empty when the cases are comparable.
std::vector<std::string> case_differences(const store::RunRecord& reference,
                                          const store::RunRecord& run,
                                          const std::string& case_name);

// The topology fields that differ from `reference` to `run`: "pus", and
// "cpus[CASE]" for each case both ran (the distinct cpulists of its
// iterations, " | "-separated), as FingerprintDifferences.
std::vector<FingerprintDifference> topology_differences(const store::RunRecord& reference,
                                                        const store::RunRecord& run);

}  // namespace schedrig::compare
