// `schedrig watch RUN --server URL`: the same lines as a local watch, fed by
// the server's run events (docs/architecture.md "HTTP API") instead of the store.
#pragma once

#include <string>

#include "host/client/api_client.h"

namespace schedrig::host {

// How long one events poll may wait on the server, s (the API's default).
inline constexpr unsigned kLongPollS = 25;

// Follows `run` (a run_id or a unique prefix) until it has ended: the header,
// every sample and result since the run began, the agent's errors on stderr,
// the last line. Returns kExitOk once it ended, kExitInterrupted on Ctrl-C
// or SIGTERM (the run goes on). Throws the client's errors (exit 2 or 3).
int watch_on_server(client::ApiClient& client, const std::string& run, bool json);

}  // namespace schedrig::host
