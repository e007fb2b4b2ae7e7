#include "host/server/rate_limited_log.h"

#include <spdlog/spdlog.h>

namespace schedrig::server {

long long RateLimitedLog::admit(Clock::time_point now) {
  std::lock_guard lock(mu_);
  if (logged_once_ && now - last_ < period_) {
    ++dropped_;
    return -1;
  }
  logged_once_ = true;
  last_ = now;
  ++lines_;
  const long long dropped = dropped_;
  dropped_ = 0;
  return dropped;
}

bool RateLimitedLog::warn(const std::string& message) {
  const long long dropped = admit(Clock::now());
  if (dropped < 0) return false;
  if (dropped == 0) {
    spdlog::warn("{}", message);
  } else {
    spdlog::warn("{} ({} more like this since the last such line)", message, dropped);
  }
  return true;
}

std::size_t RateLimitedLog::lines() const {
  std::lock_guard lock(mu_);
  return lines_;
}

}  // namespace schedrig::server
