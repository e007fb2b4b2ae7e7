// The effective values of a plan's `quiet:` keys whose absence means a
// default (proto/schedrig/v1/plan.proto QuietCheck; docs/sampling.md
// "Disturbed iterations"). Host and agent read them through these, so the
// defaults live in one place.
#pragma once

#include <cstdint>

#include "schedrig/v1/plan.pb.h"

namespace schedrig {

// Runs of a disturbed iteration beyond the first: `quiet.retries`, 0..10.
inline constexpr std::uint32_t kDefaultQuietRetries = 1;
inline constexpr std::uint32_t kMaxQuietRetries = 10;
// Other processes' CPU, % of the allowed PUs, above which a measured window
// is disturbed (`quiet.other_cpu_pct`; why 5: docs/sampling.md).
inline constexpr double kDefaultOtherCpuPct = 5;

// quiet.retries, kDefaultQuietRetries when absent.
inline std::uint32_t quiet_retries(const schedrig::v1::QuietCheck& q) {
  return q.has_retries() ? q.retries() : kDefaultQuietRetries;
}

// quiet.disturbance: check the measured window for other work (true when absent).
inline bool quiet_disturbance(const schedrig::v1::QuietCheck& q) {
  return q.has_disturbance() ? q.disturbance() : true;
}

// quiet.other_cpu_pct, kDefaultOtherCpuPct when 0.
inline double quiet_other_cpu_pct(const schedrig::v1::QuietCheck& q) {
  return q.other_cpu_pct() > 0 ? q.other_cpu_pct() : kDefaultOtherCpuPct;
}

}  // namespace schedrig
