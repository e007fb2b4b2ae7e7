#include "agent/runner/watchdog.h"

namespace schedrig::runner {

Watchdog::Watchdog(const std::atomic<bool>& outer, std::chrono::nanoseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  thread_ = std::thread([this, &outer, deadline] {
    std::unique_lock lock(mu_);
    while (!done_) {
      if (outer.load()) {
        flag_ = true;
        return;
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        fired_ = true;
        flag_ = true;
        return;
      }
      cv_.wait_for(lock, std::chrono::milliseconds(10));
    }
  });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mu_);
    done_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

}  // namespace schedrig::runner
