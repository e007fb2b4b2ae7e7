// Zero work (issue #14): an iteration in which the workload completed no
// request or op in its measured window has nothing to measure (a wakeup run
// with 0 requests reports every latency as 0 us), so it fails instead.
#pragma once

#include <string>

#include "agent/workloads/metric.h"

namespace schedrig::runner {

// "no work completed in the measured window (0 requests)" when the primary
// metric (metrics[0], a rate "UNIT/s" for every built-in workload:
// docs/workloads.md) is 0, naming its unit ("requests", "ops"); "" otherwise
// (also when there is no metric, or it is not a rate: hackbench's time_s).
std::string zero_work_reason(const workloads::WorkloadResult& r);

}  // namespace schedrig::runner
