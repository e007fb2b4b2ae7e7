// A warning that may repeat very fast (accept failing with EMFILE, a flood
// of connections over the limit, bad tokens): at most one log line per
// period, which says how many were left out (docs/architecture.md "Server").
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace schedrig::server {

// Thread-safe.
class RateLimitedLog {
 public:
  using Clock = std::chrono::steady_clock;
  explicit RateLimitedLog(std::chrono::milliseconds period = std::chrono::seconds(5))
      : period_(period) {}

  // Logs `message` at warn when the last line is at least `period` old,
  // adding "(N more like this since the last such line)" when some were dropped;
  // else only counts it. True when a line was written.
  bool warn(const std::string& message);
  // The same decision at time `now`, without logging: the number of
  // dropped occurrences to report, or -1 to drop this one too.
  long long admit(Clock::time_point now);
  // Lines written so far (tests bound the log's size with it).
  std::size_t lines() const;

 private:
  mutable std::mutex mu_;
  std::chrono::milliseconds period_;
  bool logged_once_ = false;
  Clock::time_point last_;
  long long dropped_ = 0;
  std::size_t lines_ = 0;
};

}  // namespace schedrig::server
