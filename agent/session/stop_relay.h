// A stop signal to `connect` aborts the run in progress (docs/architecture.md
// "Agent"): the runner watches one flag, the link's abort flag, which the
// host's Abort sets; SIGINT/SIGTERM set another (common/stop_signal.h). A
// StopRelay carries the second into the first for as long as a run lasts,
// so the iteration ends, the knobs are restored and the run ends `aborted`.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

namespace schedrig::agent {

class StopRelay {
 public:
  // Sets `abort` once `stop` is true, checking every `poll` (default 50 ms)
  // until destroyed. Never clears `abort`.
  StopRelay(const std::atomic<bool>& stop, std::atomic<bool>& abort,
            std::chrono::milliseconds poll = std::chrono::milliseconds(50));
  // Stops checking (joins the thread).
  ~StopRelay();
  StopRelay(const StopRelay&) = delete;
  StopRelay& operator=(const StopRelay&) = delete;

 private:
  std::jthread watcher_;
};

}  // namespace schedrig::agent
