#include "common/progress_line.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/number_format.h"
#include "common/printable.h"

namespace schedrig {

std::string iteration_flags(bool quiet_gave_up, double quiet_wait_s, unsigned starved_intervals) {
  std::string flags;
  if (quiet_gave_up)
    flags += fmt::format(" (box not quiet after {:.3g} s; ran anyway)", quiet_wait_s);
  if (starved_intervals) {
    flags += fmt::format("; {} starved interval{}", starved_intervals,
                         starved_intervals == 1 ? "" : "s");
  }
  return flags;
}

std::string progress_line(std::size_t done, std::size_t planned, const v1::IterationResult& r) {
  std::string value =
      r.status() == v1::STATUS_OK && r.metrics_size()
          ? fmt::format("{} {}", format_number(r.metrics(0).value()), r.metrics(0).unit())
          : "FAILED: " + r.reason();
  std::string line =
      fmt::format("[{:>{}}/{}] {} / {} / iteration {}: {}", done, std::to_string(planned).size(),
                  planned, r.case_name(), r.variant(), r.iteration(), value);
  std::string flags =
      iteration_flags(r.quiet_gave_up(), r.quiet_wait_s(), r.sample_summary().starved_intervals());
  if (r.disturbed()) {
    flags += printable(fmt::format("; disturbed ({}; attempt {}), left out of compare",
                                   r.disturbed_reason(), std::max(1u, r.attempts())));
  }
  return printable(line) + flags;
}

}  // namespace schedrig
