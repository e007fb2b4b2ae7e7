// `schedrig agents --server`: each agent as the server sees it now
// (docs/architecture.md "HTTP API", GET /api/v1/agents): connected or not,
// what it is doing, its queue, kernel, PUs, last seen.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace schedrig::report {

// One element of GET /api/v1/agents's "agents".
struct LiveAgent {
  std::string agent_id;
  bool connected = false;
  std::string state;    // "idle" | "running" | "offline"
  std::string run_id;   // the run it is running; "" otherwise
  std::string waiting;  // what that run waits for (the knob lock); "" when it does not
  unsigned queued = 0;  // runs waiting for it
  std::string hostname, kernel_release;
  unsigned pus = 0, allowed_pus = 0;
  std::string peer;  // "ADDR:PORT" while connected, else ""
  std::string instance_id;
  long long last_seen_ns = 0;  // ns since the epoch; 0 = never
};

// What the agent is doing, in words: "idle", "running RUN" (the run id's
// first 8 characters) and ", WAITING" when the run waits, "offline", then
// ", N queued" when runs wait for it.
std::string agent_activity(const LiveAgent& agent);

// A header, then one line per agent in the order given: AGENT, LINK
// (connected / offline), ACTIVITY (agent_activity), KERNEL, PUS (the
// topology's, "-" when unknown), ALLOWED, PEER, LAST SEEN (UTC ISO).
// Remote strings are escaped (TextTable).
void print_live_agents_table(const std::vector<LiveAgent>& agents, std::ostream& out);

}  // namespace schedrig::report
