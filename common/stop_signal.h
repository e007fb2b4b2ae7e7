// SIGINT/SIGTERM as a stop flag: the first signal asks the running work to
// stop cleanly (the agent's workload creators finish their loop and are
// reaped; `schedrig lab` asks its agent to abort the run); the handler only
// stores to a lock-free atomic, so it is async-signal-safe (signal-safety(7)).
#pragma once

#include <atomic>

namespace schedrig {

// Installs the handlers (once) and returns the flag they set.
std::atomic<bool>& install_stop_signals();

}  // namespace schedrig
