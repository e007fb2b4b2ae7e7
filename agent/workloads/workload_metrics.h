// Metric helpers the workloads' registry adapters share (docs/architecture.md
// "Results model"): latency percentiles and scheduler delay, each with its
// unit and direction.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "agent/workloads/latency_histogram.h"
#include "agent/workloads/metric.h"
#include "agent/workloads/schedstat.h"

namespace schedrig::workloads {

// Percentile metrics of `h` (ns) in us: NAME_p50_us, NAME_p90_us,
// NAME_p99_us, NAME_p99_9_us, NAME_max_us; lower is better.
void add_percentiles(std::vector<Metric>& out, const std::string& name, const LatencyHistogram& h);

// WHO_sched_delay_us: `d`'s mean delay (us) per wait; nothing when `d` is
// nullopt (no schedstat).
void add_sched_delay(std::vector<Metric>& out, const std::string& who,
                     const std::optional<SchedDelay>& d);

// runqueue_wait_share: the share of runnable time spent waiting for a CPU,
// wait / (run + wait) over both thread groups, in [0, 1]; nothing when
// neither is known.
void add_wait_share(std::vector<Metric>& out, const std::optional<SchedDelay>& a,
                    const std::optional<SchedDelay>& b);

}  // namespace schedrig::workloads
