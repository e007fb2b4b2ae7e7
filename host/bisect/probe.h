// One bisect-knobs probe (docs/bisect-knobs.md "Probes"): the plan that
// runs the case as found against the case with some candidates flipped,
// paired round by round and stopped by the sequential rule, and the look
// its stored iterations give.
#pragma once

#include <string>
#include <vector>

#include "common/stats/sequential.h"
#include "host/bisect/candidates.h"
#include "host/store/records.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::bisect {

inline constexpr const char* kAsFound = "as-found";
inline constexpr const char* kFlipped = "flipped";

// `base` cut to its case `case_name` (its gate kept), with two variants:
// "as-found" (no knobs) and "flipped" (every feature token, sysctl and
// tunable of `flips`), iterations {min_pairs, max_pairs, stop: verdict,
// delta_pct} from `rule`, interleaved. Throws std::invalid_argument for a
// case the plan does not have, naming the cases it has.
v1::Plan probe_plan(const v1::Plan& base, const std::string& case_name,
                    const std::vector<const Candidate*>& flips, const stats::SequentialRule& rule);

// The judged metric of a case: its gate metric, else "" (the primary one).
std::string judged_metric(const v1::Plan& base, const std::string& case_name);

// The as-found and flipped values of `metric` ("" = each iteration's
// first) in `run`, paired by iteration number; pairs with a failed side
// are left out.
struct ProbePairs {
  std::vector<double> as_found, flipped;
  std::string metric, unit, direction;  // of the judged metric
  int disturbed = 0;  // pairs with a side the quiet check marked disturbed (counted in)
};
ProbePairs probe_pairs(const store::RunRecord& run, const std::string& metric);

// The look of a finished probe: sequential_look on its pairs; "unsettled"
// when the run ran out of pairs (failed iterations) before settling.
// Throws std::invalid_argument with fewer than 2 pairs.
stats::SequentialLook probe_look(const ProbePairs& pairs, const stats::SequentialRule& rule);

}  // namespace schedrig::bisect
