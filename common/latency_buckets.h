// The log-linear latency buckets shared by the agent's LatencyHistogram
// (agent/workloads/latency_histogram.h) and the host's pooled percentiles
// (host/analysis/pooled_histogram.h): the HdrHistogram / fio "plat" layout.
//
// Values are integers in ns. 0..127 get one bucket each (exact). Above,
// every power-of-two range [2^e, 2^(e+1)), e = 7..39, is cut into 64 equal
// buckets of width 2^(e-6), so a bucket is at most 1/64 of its lower bound
// wide; values >= 2^40 ns (~18 min) land in the top bucket.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace schedrig::latency_buckets {

inline constexpr unsigned kSubBucketBits = 6;                           // 64 buckets per octave
inline constexpr std::uint64_t kExactBelow = 128;                       // 1-ns buckets below this
inline constexpr unsigned kTopExponent = 40;                            // clamp at 2^40 ns
inline constexpr std::size_t kBuckets = 128 + (kTopExponent - 7) * 64;  // 2240

// The bucket of `value_ns`.
constexpr std::size_t index_of(std::uint64_t value_ns) {
  if (value_ns < kExactBelow) return static_cast<std::size_t>(value_ns);
  const unsigned e = 63u - static_cast<unsigned>(std::countl_zero(value_ns));  // >= 7
  if (e >= kTopExponent) return kBuckets - 1;
  const unsigned shift = e - kSubBucketBits;
  return kExactBelow + (e - 7) * 64 + static_cast<std::size_t>((value_ns >> shift) - 64);
}

// Inclusive lower bound of bucket `index`, ns.
constexpr std::uint64_t lower_bound_ns(std::size_t index) {
  if (index < kExactBelow) return index;
  const std::size_t g = (index - kExactBelow) / 64, k = (index - kExactBelow) % 64;
  return static_cast<std::uint64_t>(64 + k) << (g + 1);
}

// Width of bucket `index`, ns (it spans [lower, lower + width)).
constexpr std::uint64_t width_ns(std::size_t index) {
  if (index < kExactBelow) return 1;
  return std::uint64_t{1} << ((index - kExactBelow) / 64 + 1);
}

}  // namespace schedrig::latency_buckets
