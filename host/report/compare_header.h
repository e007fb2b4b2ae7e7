// The lines above a comparison table (docs/statistics.md "Outputs"): the
// run(s) compared, each run that did not end ok (status, reason, ok count),
// what --disturbed left out or counted per run, across runs the boots a side
// and the fingerprint and topology fields that differ, and the case
// pairings --force let through.
#pragma once

#include <ostream>

#include "host/compare/compare_table.h"

namespace schedrig::report {

// Writes those lines, each escaped (common/printable.h).
void print_compare_header(const compare::Table& table, std::ostream& out);

// "run X: 3 disturbed iterations left out (--disturbed include to count
// them)", "run X: 3 disturbed iterations counted (--disturbed include)",
// "run X: only its 3 disturbed iterations counted (--disturbed only; 27
// others left out)"; "" when there is nothing to say.
std::string disturbed_line(const compare::ComparedRun& run, compare::DisturbedPolicy policy);

// "run X: its box sets knobs at every boot (the box as found is not the
// kernel's default): sched_features=NO_NI_RANDOM (/etc/tmpfiles.d/x.conf:1)";
// "" for a run whose fingerprint records no persisted setting.
std::string persisted_knobs_line(const compare::ComparedRun& run);

}  // namespace schedrig::report
