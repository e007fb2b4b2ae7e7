// Runs as plain-text tables for the console (`schedrig results [RUN]`).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "host/store/records.h"

namespace schedrig::report {

// A header, then one line per run in the order given:
// RUN (first 8 chars of run_id), STARTED (UTC ISO), AGENT, KERNEL, STATUS,
// ITERATIONS (done/planned), PLAN (its name), LABELS (k=v,k=v).
void print_runs_table(const std::vector<store::RunRecord>& runs, std::ostream& out);

// Header lines (run, agent and hostname, kernel, PUs, plan, labels, status,
// times, and the reason when the run did not end ok), a blank line, then one
// line per iteration in position order: CASE, VARIANT, ITER, STATUS, METRIC
// (the primary, i.e. first, metric's name), VALUE ("127,553 ops/s":
// format_number, right-aligned, then the unit), and a REASON column when any
// iteration has one. Columns are aligned.
void print_run_detail(const store::RunRecord& run, std::ostream& out);

// "box1 (vm.lab)": the agent id and, when it differs, its hostname; the id
// alone when the hostname is unknown.
std::string agent_name(const store::RunRecord& run);

// "fingerprint of run RUN (agent ID (HOST), kernel K):" then "  FIELD  VALUE"
// per stored fingerprint field in name order (columns aligned, values
// escaped), or "  (none stored)" for a run without one.
void print_fingerprint(const store::RunRecord& run, std::ostream& out);

// The iteration's primary (first) metric as "127,553 ops/s" (format_number,
// then the unit) when it is ok; "FAILED: reason" (or its status in capitals)
// when not; "-" when ok without metrics.
std::string primary_metric_text(const store::IterationRecord& it);

}  // namespace schedrig::report
