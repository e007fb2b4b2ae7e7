// Following a run through a restart of `serve` (docs/architecture.md
// "Command lines"): the run goes on on its agent while the server is away,
// so `run --wait` and `watch --server` keep asking instead of exiting 3.
#pragma once

#include <chrono>
#include <functional>
#include <ostream>
#include <string>

namespace schedrig::client {

struct OutagePolicy {
  std::chrono::milliseconds first_retry{500};  // then doubling
  std::chrono::milliseconds max_retry{5000};
  std::chrono::milliseconds give_up{std::chrono::minutes(10)};  // then the error stands
};

// Calls `request` until it returns. An Error of kind kUnreachable (the
// server went away: common/error.h) is said once on `log` ("lost the
// connection to server ...; retrying for up to 600 s (the run goes on on its
// agent)"), retried after a growing pause, and "server is back" said once it
// answers; after policy.give_up the last error is rethrown. A stop signal
// (common/stop_signal.h) during a pause throws Error(kInterrupted); any other
// error propagates at once.
void ride_server_outage(const std::function<void()>& request, std::ostream& log,
                        const OutagePolicy& policy = {});

}  // namespace schedrig::client
