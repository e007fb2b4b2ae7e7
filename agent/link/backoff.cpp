#include "agent/link/backoff.h"

#include <algorithm>

namespace schedrig::link {

Backoff::Backoff(BackoffPolicy policy, std::uint64_t seed) : policy_(policy), rng_(seed) {}

std::chrono::milliseconds Backoff::ceiling() const {
  const auto cap = std::max(policy_.cap, policy_.initial);
  auto c = policy_.initial;
  for (unsigned i = 0; i < attempt_ && c < cap; ++i) c *= 2;
  return std::min(c, cap);
}

std::chrono::milliseconds Backoff::next() {
  const std::int64_t c = ceiling().count();
  std::uniform_int_distribution<std::int64_t> pick(c / 2, c);
  if (attempt_ < 64) ++attempt_;
  return std::chrono::milliseconds(pick(rng_));
}

}  // namespace schedrig::link
