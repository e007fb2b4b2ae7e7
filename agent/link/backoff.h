// The agent's reconnect schedule (docs/architecture.md "Agent", issue #13):
// exponential backoff with equal jitter. Attempt n (from 0) waits a delay
// drawn uniformly from [c/2, c], c = min(cap, initial * 2^n), so agents that
// lost the same host spread out without ever retrying at once in a burst.
#pragma once

#include <chrono>
#include <cstdint>
#include <random>

namespace schedrig::link {

struct BackoffPolicy {
  std::chrono::milliseconds initial{100};  // the first ceiling
  std::chrono::milliseconds cap{30000};    // no ceiling above this
  // A connection that lived this long (or got an Ack) resets the schedule.
  std::chrono::milliseconds reset_after{10000};
};

class Backoff {
 public:
  // `seed` picks the jitter (tests pass a fixed one).
  explicit Backoff(BackoffPolicy policy = {}, std::uint64_t seed = std::random_device{}());

  // The delay before the next attempt, in [ceiling()/2, ceiling()]; then
  // the ceiling doubles (up to the cap).
  std::chrono::milliseconds next();

  // The ceiling the next delay is drawn under.
  std::chrono::milliseconds ceiling() const;

  // Back to the first ceiling (after a good connection).
  void reset() { attempt_ = 0; }

  const BackoffPolicy& policy() const { return policy_; }

 private:
  BackoffPolicy policy_;
  unsigned attempt_ = 0;  // delays handed out since the last reset
  std::mt19937_64 rng_;
};

}  // namespace schedrig::link
