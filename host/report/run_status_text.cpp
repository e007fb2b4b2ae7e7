#include "host/report/run_status_text.h"

#include <algorithm>

#include <fmt/format.h>

namespace schedrig::report {

std::string run_status_note(const store::RunRecord& run) {
  const auto ok = std::count_if(run.iterations.begin(), run.iterations.end(),
                                [](const store::IterationRecord& it) { return it.status == "ok"; });
  return run_status_note(RunStatus{run.run_id, run.status, run.reason, static_cast<unsigned>(ok),
                                   run.planned_iterations,
                                   run.started_at_ns != 0 || !run.iterations.empty()});
}

std::string run_status_note(const RunStatus& run) {
  if (run.status == "ok") return "";
  const std::string count = !run.started ? "never started"
                                         : fmt::format("{} of {} iterations ok", run.ok_iterations,
                                                       run.planned_iterations);
  return fmt::format("run {} {}{} ({})", run.run_id, run.status.empty() ? "unknown" : run.status,
                     run.reason.empty() ? "" : ": " + run.reason, count);
}

}  // namespace schedrig::report
