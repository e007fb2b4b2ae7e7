// The registry entry of each workload (registry.h), defined beside the
// workload itself: its parameters, primary metric, validation and the
// adapter from Params and RunContext to the workload's own types.
#pragma once

#include "agent/workloads/registry.h"

namespace schedrig::workloads {

// fork: the fork storm (fork_storm.h), in fork_storm_case.cpp.
WorkloadInfo fork_workload();
// wakeup: the schbench-model wakeup storm (wakeup_storm.h), in wakeup_storm_case.cpp.
WorkloadInfo wakeup_workload();
// kv: the kv contention workload (kv_store.h), in kv_store_case.cpp.
WorkloadInfo kv_workload();
// The external tools (tool_case.h), in tool_cases.cpp.
WorkloadInfo schbench_workload();
WorkloadInfo stress_ng_workload();
WorkloadInfo hackbench_workload();
WorkloadInfo perf_bench_sched_workload();

}  // namespace schedrig::workloads
