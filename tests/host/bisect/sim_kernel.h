// The simulated kernel of the bisect-knobs tests (issue #20), tests only:
// a workload "simkernel" whose rate depends on the sched features file the
// agent's knobs write (the FUSE fake of tests/support/fake_sched_features,
// its path in $SCHEDRIG_SIMKERNEL_FEATURES): 1000 ops/s, doubled while
// NI_RANDOM is off, times 1.3 while both ALPHA_PAIR and ZULU_PAIR are off, with
// 1% noise per iteration, seeded by the features line and the agent's
// iteration count, so a whole search repeats exactly. It sleeps through
// the iteration.
#pragma once

#include "agent/workloads/registry.h"

namespace schedrig::testing {

// The workload; register it with workloads::add_workload_for_tests.
workloads::WorkloadInfo sim_kernel_workload();

// The features as found in the tests: NI_RANDOM, ALPHA_PAIR, ZULU_PAIR and 37
// others, all on, in the line the fake file takes ("NI_RANDOM F03 ...").
std::string sim_kernel_features();

}  // namespace schedrig::testing
