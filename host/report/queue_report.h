// `schedrig queue --server`: the server's run queue (docs/architecture.md
// "HTTP API", GET /api/v1/runs): what waits, what runs, what ended.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace schedrig::report {

// One element of GET /api/v1/runs's "runs".
struct QueueEntry {
  std::string run_id, agent_id, plan_name;
  std::string state;    // "queued" | "running" | "ok" | "failed" | "aborted"
  std::string reason;   // why it failed or was aborted
  std::string waiting;  // what a running run waits for (the knob lock); "" when it does not
  std::map<std::string, std::string> labels;
  std::string submitted_by;                                                 // the operator's name
  long long submitted_at_ns = 0, dispatched_at_ns = 0, finished_at_ns = 0;  // 0 = not yet
  int queue_position = -1;  // runs of its agent ahead of it (running or queued); -1 when not queued
};

// A header, then one line per entry in the order given: RUN (full id),
// AGENT, STATE ("waiting" for a running run that waits), POS (queue
// position, "-" when not queued), PLAN, LABELS (k=v,...), BY, SUBMITTED
// (UTC ISO), REASON (what a waiting run waits for, else the reason; "-"
// when none). Remote strings are escaped (TextTable).
void print_queue_table(const std::vector<QueueEntry>& entries, std::ostream& out);

}  // namespace schedrig::report
