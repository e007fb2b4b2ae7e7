// Runner safety (docs/architecture.md "Runner safety"): a watchdog thread that asks an
// iteration's workload to stop when the run is stopped or when the
// iteration overruns its limit (duration + grace).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace schedrig::runner {

class Watchdog {
 public:
  // Watches `outer` (the run's stop flag) and the time since construction;
  // sets flag() when `outer` becomes true or `limit` passes.
  Watchdog(const std::atomic<bool>& outer, std::chrono::nanoseconds limit);
  // Stops watching (does not set the flag).
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // The flag to hand the workload as its stop flag.
  const std::atomic<bool>& flag() const { return flag_; }
  // True when the limit passed (not when `outer` was set).
  bool fired() const { return fired_.load(); }

 private:
  std::atomic<bool> flag_{false};
  std::atomic<bool> fired_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace schedrig::runner
