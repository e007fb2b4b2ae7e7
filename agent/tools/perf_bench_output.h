// `perf bench sched messaging|pipe` reports as metrics (tools/perf/bench/
// sched-messaging.c, sched-pipe.c; the default format):
//   messaging: "# 10 groups == 400 processes run", "     Total time: 2.119 [sec]"
//   pipe:      "     Total time: 0.433 [sec]", "      21.683400 usecs/op",
//              "          46118 ops/sec"
#pragma once

#include <string>
#include <vector>

#include "agent/workloads/metric.h"

namespace schedrig::tools {

// metrics[0]: ops_per_s for pipe (higher is better), total_time_s for
// messaging (lower is better); then total_time_s, usecs_per_op (us),
// ops_per_s, processes, as printed. Throws ToolRunError quoting the output
// when there is no "Total time:" line.
std::vector<workloads::Metric> parse_perf_bench_output(const std::string& output);

}  // namespace schedrig::tools
