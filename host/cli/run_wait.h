// `schedrig run --wait`: follows the runs it queued until each has ended
// (docs/architecture.md "Command lines"), then shows each run's comparison.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "host/client/api_client.h"
#include "host/compare/gate.h"

namespace schedrig::host {

// A run the server queued (POST /api/v1/runs's "runs" element).
struct QueuedRunRef {
  std::string run_id, agent_id;
  int queue_position = 0;
  bool connected = true;  // its agent is connected to the server now
};

// POST /api/v1/runs's answer {"runs":[{run_id, agent_id, queue_position,
// connected}]} read; Error(kFailed) naming what is missing.
std::vector<QueuedRunRef> queued_runs(const nlohmann::json& answer);

// "run RUN on AGENT: next in its queue" / "...: queued, 2 runs ahead"; for
// an agent not connected now "...: AGENT is not connected; the run waits in
// its queue until it is" (", 2 runs ahead" before the ";" when there are).
// Escaped for the terminal.
std::string queued_line(const QueuedRunRef& r);

struct WaitOptions {
  unsigned planned = 0;             // planned iterations per run (the plan's)
  bool fail_on_regression = false;  // --fail-on regression
  compare::GateOptions gate;        // what it judges (host/compare/gate.h)
  double threshold_pct = 0;         // --threshold, for the tables too
  bool all_metrics = false;         // --all-metrics in the tables
  bool json = false;                // stdout: the runs' results JSON; progress on stderr
};

// Follows every run of `runs` to its end, printing progress lines
// (common/progress_line, "AGENT: " before each when there are several
// runs) and each run's end, then per run the comparison of its variants
// (or, with json, {"runs":[...]} as `results --json`). A run disconnected
// is waited for (a line says so, another when it resumes); one interrupted
// ends the wait for it ("run R interrupted: REASON") like a failed one.
// Returns kExitOk, kExitFailed when a run did not finish ok (interrupted
// included) or (fail_on_regression) its comparison fails the gate (a
// "gate:" line per failing case and metric on stderr), or kExitInterrupted on Ctrl-C/SIGTERM, which
// stops waiting and leaves the runs going on the server (it says so).
int wait_for_runs(client::ApiClient& client, const std::vector<QueuedRunRef>& runs,
                  const WaitOptions& o);

}  // namespace schedrig::host
