// A session with no host (`schedrig-agent run`, docs/architecture.md
// "Command lines"): the envelope stream the link would carry (Hello,
// Topology, the run) goes to an offline file (file_sink.h) that `schedrig
// import F` loads as if it had streamed.
#pragma once

#include <atomic>
#include <ostream>
#include <string>

#include "agent/session/agent_state.h"
#include "common/plan/plan_yaml.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::agent {

struct OfflineOptions {
  std::string out;        // the offline file; "" = progress lines only
  std::string id;         // agent id; "" = the hostname
  StateOptions state;     // knob root and journal
  std::string plan_file;  // where the plan came from, for refusals; "" = unknown
  PlanLines plan_lines;   // its keys' lines (plan_yaml.h)
};

// Runs `start` on this machine's live topology until it ends or `stop` is
// set, printing a progress line per iteration to `progress`. Returns the
// run's RunFinished. Throws schedrig::Error: kUsage when the file cannot be
// written or the plan is rejected, kUnreachable when another agent holds
// the state dir (state_lock.h), a knob journal cannot be restored or the
// plan needs a facility this box lacks (ERROR_FACILITY_UNAVAILABLE). The
// file replaces `o.out` only once the run starts (file_sink.h).
schedrig::v1::RunFinished run_offline(const schedrig::v1::StartRun& start, const OfflineOptions& o,
                                      const std::atomic<bool>& stop, std::ostream& progress);

}  // namespace schedrig::agent
