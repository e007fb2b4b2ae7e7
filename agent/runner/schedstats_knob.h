// kernel.sched_schedstats during a sampled run (issue #6): the per-domain
// load-balance counters of /proc/schedstat only move while it is 1
// (Documentation/scheduler/sched-stats.rst).
#pragma once

#include "agent/knobs/knob_controller.h"
#include "common/procfs/root.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::runner {

// `plan` with kernel.sched_schedstats: 1 added to every variant when all of
// these hold: the plan samples (sample_hz > 0), no variant names the knob
// already, /proc/schedstat exists under `root`, the sysctl reads 0 and
// can be written through `knobs`. Otherwise `plan` unchanged. The knob is
// then journaled and restored like any other. Never throws.
schedrig::v1::Plan with_schedstats_on(const schedrig::v1::Plan& plan,
                                      const knobs::KnobController& knobs, const procfs::Root& root);

}  // namespace schedrig::runner
