// The /proc sources the sampler reads, and how their absence is worded in
// SourceStatus (sampler.h, probe_sources).
#pragma once

#include <string>

#include "agent/sampler/sampler.h"

namespace schedrig::sampler {

// Paths as the kernel names them; probe_sources reports them in this order.
inline constexpr const char* kProcStat = "/proc/stat";
inline constexpr const char* kProcSchedstat = "/proc/schedstat";
inline constexpr const char* kProcVmstat = "/proc/vmstat";
inline constexpr const char* kProcPressureCpu = "/proc/pressure/cpu";
inline constexpr const char* kProcLoadavg = "/proc/loadavg";

// A not-present status for `path` with a reason from errno, with a hint for
// the known cases (ENOENT schedstat: no CONFIG_SCHEDSTATS; EOPNOTSUPP PSI: psi=0).
SourceStatus absent_status(const std::string& path, int err);

}  // namespace schedrig::sampler
