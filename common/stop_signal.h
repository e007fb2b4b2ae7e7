// SIGINT/SIGTERM as a stop flag: the first signal asks the running workload
// to stop cleanly (creators finish their loop and are reaped); the handler
// only stores to a lock-free atomic, so it is async-signal-safe.
#pragma once

#include <atomic>

namespace schedrig::agent {

// Installs the handlers (once) and returns the flag they set.
std::atomic<bool>& install_stop_signals();

}  // namespace schedrig::agent
