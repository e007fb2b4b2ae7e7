// Runs as the server stores them, read whole (GET /api/v1/runs/ID: the JSON
// of `schedrig results ID --json`), for `results`, `compare`, `watch` and
// `run --wait` against a server.
#pragma once

#include <string>

#include "host/client/api_client.h"
#include "host/store/records.h"

namespace schedrig::client {

// The one run `run` (a run_id or a unique prefix of at least 8 chars) names.
// The server's 404 (no such run) and 409 (ambiguous prefix) are
// Error(kUsage) with its text; an answer without exactly one run is
// Error(kFailed). With `histograms`, each iteration's latency histograms
// come too (?histograms=1).
store::RunRecord fetch_run(ApiClient& client, const std::string& run, bool histograms = false);

// The run_id of the run last submitted to the server (GET /api/v1/runs: the
// queue in FIFO order, ended runs too). Error(kUsage) when it has none.
std::string newest_run_id(ApiClient& client);

}  // namespace schedrig::client
