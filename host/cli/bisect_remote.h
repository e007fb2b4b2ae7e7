// `schedrig bisect-knobs --server URL --agent ID` (docs/bisect-knobs.md
// "Through a server"): the box's knobs come from the agent's Hello as the
// server keeps it (GET /api/v1/agents/ID/knobs), and every probe is a run
// queued on that agent (POST /api/v1/runs), followed to its end and read
// back whole (GET /api/v1/runs/ID), as `run --wait` does.
#pragma once

#include <string>

#include "host/bisect/candidates.h"
#include "host/client/api_client.h"
#include "host/store/records.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::host {

// The knobs `agent`'s Hello reported, with its config's bisect_deny and
// instance id. Throws CliError: kUsage when the server has no such agent
// (naming the ones it has), kUnreachable when it is not connected now,
// kFailed when the answer is not a knobs document; API errors as
// ApiClient::get_json.
bisect::BoxKnobs read_remote_box_knobs(client::ApiClient& api, const std::string& agent);

// Queues `plan` (sent as YAML: plan_to_json's text) on `agent` with the
// label bisect-knobs=probe, follows it to its end (riding out a server
// restart; with `verbose` a line per iteration on stderr), and returns the
// stored run. When Ctrl-C/SIGTERM stops the wait (ApiClient::stop_on_signals
// was called), the probe is aborted on the server and Error(kInterrupted)
// is rethrown.
store::RunRecord run_remote_probe(client::ApiClient& api, const std::string& agent,
                                  const v1::Plan& plan, bool verbose);

}  // namespace schedrig::host
