// stress-ng's report as metrics: the --metrics-brief (or --metrics) table
// that stress-ng prints after a run (stress-ng.c metrics_dump; prefix
// "stress-ng: metrc:" since V0.15, "stress-ng: info:" before), and the
// lines by which it says the run does not count.
//
//   stress-ng: metrc: [4148] stressor       bogo ops real time  usr time  sys time   bogo ops/s
//   bogo ops/s stress-ng: metrc: [4148]                           (secs)    (secs)    (secs) (real
//   time) (usr+sys time) stress-ng: metrc: [4148] msg           1626997107     60.61    171.63
//   4003.65  26845470.19      389673.05
//
// --metrics adds "CPU used per instance (%)" and, since V0.16, "RSS Max (KB)".
#pragma once

#include <string>
#include <vector>

#include "agent/workloads/metric.h"

namespace schedrig::tools {

// Metrics from one stress-ng run's output (stdout and stderr together).
// metrics[0] is bogo_ops_per_s (real time) of the first stressor row; then,
// per stressor row, STRESSOR_bogo_ops, STRESSOR_bogo_ops_per_s,
// STRESSOR_bogo_ops_per_cpu_s (usr+sys time), STRESSOR_{real,usr,sys}_time_s
// and, when printed, STRESSOR_cpu_used_pct and STRESSOR_rss_max_kib.
// Throws ToolRunError with stress-ng's own words for a "fail:" line, a
// "metrics untrustworthy: N" or "failed: N" summary with N > 0, a
// "metrics corrupted" line, or no metrics row at all.
std::vector<workloads::Metric> parse_stress_ng_output(const std::string& output);

}  // namespace schedrig::tools
