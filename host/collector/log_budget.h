// How many Log envelopes without a run_id one session stores (docs/
// architecture.md "Session rules"): an agent's own lines are kept, but a
// flood of them cannot grow the store without bound. Decided without the
// network or the store.
#pragma once

#include <chrono>
#include <cstddef>

namespace schedrig::collector {

// At most kPerWindow run-less Logs per kWindow (a fixed window that starts
// at the first Log after the last window ended); beyond that they are
// dropped and counted. Not thread-safe (one session's strand).
class RunlessLogBudget {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kPerWindow = 100;
  static constexpr std::chrono::seconds kWindow{60};

  // True when a Log at `now` may be stored; false counts it as dropped.
  bool take(Clock::time_point now) {
    if (taken_ == 0 || now - window_start_ >= kWindow) {
      window_start_ = now;
      taken_ = 0;
    }
    if (taken_ < kPerWindow) {
      ++taken_;
      return true;
    }
    ++dropped_;
    return false;
  }
  // Logs dropped so far in this session.
  std::size_t dropped() const { return dropped_; }

 private:
  Clock::time_point window_start_{};
  std::size_t taken_ = 0;
  std::size_t dropped_ = 0;
};

}  // namespace schedrig::collector
