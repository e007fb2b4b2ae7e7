// schbench's report as metrics (masoncl/schbench schbench.c: show_latencies
// on stderr, write_json_* for `-j -` on stdout). Two text formats exist:
//   since 2023 ("new"): "Wakeup Latencies percentiles (usec) runtime 30 (s)
//     (209403 total samples)", rows "\t* 99.0th: 20  (18323 samples)",
//     "\t  min=1, max=8400", then "Request Latencies ...", "RPS percentiles
//     (requests) ...", "average rps: 6984.77" (or "final rps goal was N" with
//     -A), "sched delay: message M (usec) worker W (usec)"; with -p (pipe)
//     only wakeup latencies and "avg worker transfer: X ops/sec ...";
//   before ("v1"): "Latency percentiles (usec)", rows "\t*99.0000th: 981",
//     "\tmin=0, max=29497": wakeup latencies only.
// schbench prints a block every -i seconds and the whole run's last; the
// last block of each kind is taken.
#pragma once

#include <string>
#include <vector>

#include "agent/workloads/metric.h"

namespace schedrig::tools {

// Metrics from one schbench run's stdout (the `-j -` JSON, may be empty) and
// stderr (the text report). metrics[0] is the primary metric:
// requests_per_s ("average rps"; the RPS p50 with -A), transfers_per_s with
// -p, else wakeup_latency_p99_us (v1). Then {wakeup,request}_latency_pN_us
// (p50, p90, p99, p99_9, ... as printed) and _max_us, rps_pN, and
// {message,worker}_sched_delay_us (schbench's mean run-queue wait per thread
// over the run, /proc/PID/task/TID/schedstat field 2). JSON percentiles,
// where present, win over the text's (same values, no rounding). Throws
// ToolRunError quoting the output when neither holds a latency block.
std::vector<workloads::Metric> parse_schbench_output(const std::string& stdout_text,
                                                     const std::string& stderr_text);

}  // namespace schedrig::tools
