#include "common/progress_line.h"

#include <fmt/format.h>

#include "common/number_format.h"

namespace schedrig {

std::string progress_line(std::size_t done, std::size_t planned, const v1::IterationResult& r) {
  std::string value =
      r.status() == v1::STATUS_OK && r.metrics_size()
          ? fmt::format("{} {}", format_number(r.metrics(0).value()), r.metrics(0).unit())
          : "FAILED: " + r.reason();
  return fmt::format("[{:>{}}/{}] {} / {} / iteration {}: {}", done, std::to_string(planned).size(),
                     planned, r.case_name(), r.variant(), r.iteration(), value);
}

}  // namespace schedrig
