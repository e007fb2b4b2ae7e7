#include "common/stats/normal_draws.h"

#include <cmath>
#include <numbers>

#include "common/plan/schedule.h"

namespace schedrig::stats {

double NormalDraws::uniform() {
  // 53 random bits, shifted off 0 so the log below is finite.
  return (static_cast<double>(splitmix64(state_) >> 11) + 0.5) * 0x1.0p-53;
}

double NormalDraws::next() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double r = std::sqrt(-2 * std::log(uniform()));
  const double theta = 2 * std::numbers::pi * uniform();
  spare_ = r * std::sin(theta);
  has_spare_ = true;
  return r * std::cos(theta);
}

}  // namespace schedrig::stats
