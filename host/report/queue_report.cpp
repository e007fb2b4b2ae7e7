#include "host/report/queue_report.h"

#include "host/report/format.h"
#include "host/report/text_table.h"

namespace schedrig::report {

void print_queue_table(const std::vector<QueueEntry>& entries, std::ostream& out) {
  TextTable table({{"RUN"},
                   {"AGENT"},
                   {"STATE"},
                   {"POS", TextTable::Align::kRight},
                   {"PLAN"},
                   {"LABELS"},
                   {"BY"},
                   {"SUBMITTED"},
                   {"REASON"}});
  for (const auto& e : entries) {
    const std::string labels = format_labels(e.labels);
    const bool waits = !e.waiting.empty();
    const std::string& reason = waits ? e.waiting : e.reason;
    table.add_row({e.run_id, e.agent_id, waits ? "waiting" : e.state,
                   e.queue_position < 0 ? "-" : std::to_string(e.queue_position), e.plan_name,
                   labels.empty() ? "-" : labels, e.submitted_by, format_utc(e.submitted_at_ns),
                   reason.empty() ? "-" : reason});
  }
  table.print(out);
}

}  // namespace schedrig::report
