// A run's status in words, for commands that gate on it (`compare
// --fail-on regression`, `run --wait`): a run that did not finish ok has no
// verdict to trust, whatever its comparison shows.
#pragma once

#include <string>

#include "host/store/records.h"

namespace schedrig::report {

// "" when the run ended ok; else "run ID STATUS: REASON (N of M iterations
// ok)" (": REASON" only when it has one; "never started" for a run with no
// RunStarted and no results). Not escaped: the caller prints it
// through printable().
std::string run_status_note(const store::RunRecord& run);

// What run_status_note reads of a run.
struct RunStatus {
  std::string run_id, status, reason;
  unsigned ok_iterations = 0, planned_iterations = 0;
  bool started = true;  // a RunStarted or a result was stored
};
// The same words from those fields.
std::string run_status_note(const RunStatus& run);

}  // namespace schedrig::report
