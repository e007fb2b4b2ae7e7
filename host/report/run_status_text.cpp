#include "host/report/run_status_text.h"

#include <algorithm>

#include <fmt/format.h>

namespace schedrig::report {

std::string run_status_note(const store::RunRecord& run) {
  if (run.status == "ok") return "";
  const auto ok = std::count_if(run.iterations.begin(), run.iterations.end(),
                                [](const store::IterationRecord& it) { return it.status == "ok"; });
  const std::string count = run.started_at_ns == 0 && run.iterations.empty()
                                ? "never started"
                                : fmt::format("{} of {} iterations ok", ok, run.planned_iterations);
  return fmt::format("run {} {}{} ({})", run.run_id, run.status.empty() ? "unknown" : run.status,
                     run.reason.empty() ? "" : ": " + run.reason, count);
}

}  // namespace schedrig::report
