// Standard normal draws from a seed, the same on every build and libstdc++
// (std::normal_distribution is not): splitmix64 (common/plan/schedule.h)
// uniforms through the Box-Muller transform (Box & Muller 1958).
#pragma once

#include <cstdint>

namespace schedrig::stats {

class NormalDraws {
 public:
  explicit NormalDraws(std::uint64_t seed) : state_(seed) {}
  // The next N(0, 1) draw.
  double next();
  // The next uniform in (0, 1).
  double uniform();

 private:
  std::uint64_t state_;
  double spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace schedrig::stats
