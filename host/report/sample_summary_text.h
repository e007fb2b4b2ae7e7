// What the sampler saw, per (case, variant) of a run: the table `schedrig
// lab` prints after the compare table and `schedrig results RUN` under the
// iterations (issue #6, docs/sampling.md).
#pragma once

#include <ostream>

#include "host/store/records.h"

namespace schedrig::report {

// When any iteration of `run` was sampled or waited for a quiet box: a
// blank line, then (when sampled) a table with one line per (case,
// variant) in order of first appearance: CASE, VARIANT, IDLE%, RUNNABLE,
// CTXT/S, WAIT% (workload wait share), NEWIDLE/S, PSI% (some) — each the
// mean over the iterations that have it of their per-iteration means, "-"
// when none has it — and STARVED (starved intervals, all iterations
// together; "-" when no iteration of the row was sampled); then one line
// "quiet box: N of M iterations waited (mean X s, longest Y s); K gave up
// and ran on a busy box" (or "none gave up"). Prints nothing otherwise.
void print_sample_summary(const store::RunRecord& run, std::ostream& out);

}  // namespace schedrig::report
