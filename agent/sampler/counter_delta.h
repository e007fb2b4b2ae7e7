// Difference of a kernel counter between two readings. A counter that went
// down (wrapped, reset by a CPU going offline and online again, or the
// NO_HZ idle/iowait accounting that is known to step back) gives 0: never
// negative and never a 2^64 wrap-around.
#pragma once

#include <cstdint>

namespace schedrig::sampler {

inline std::uint64_t counter_delta(std::uint64_t now, std::uint64_t before) {
  return now >= before ? now - before : 0;
}

}  // namespace schedrig::sampler
