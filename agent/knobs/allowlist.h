// The sysctls and debugfs sched tunables schedrig may write, each with its
// value type and range. Nothing outside this list is ever written.
#pragma once

#include <string>
#include <vector>

namespace schedrig::knobs {

struct TunableSpec {
  const char* name;  // "kernel.numa_balancing" or "sched/migration_cost_ns"
  long long min;     // inclusive range of the decimal value
  long long max;
  const char* help;
};

// Sysctls, named as sysctl(8) does (kernel.sched_autogroup_enabled).
const std::vector<TunableSpec>& sysctl_allowlist();

// debugfs sched tunables, named relative to /sys/kernel/debug (sched/base_slice_ns).
const std::vector<TunableSpec>& debugfs_allowlist();

// The spec for `name` in `list`, or nullptr.
const TunableSpec* find_spec(const std::vector<TunableSpec>& list, const std::string& name);

// Checks `value` is a decimal integer in [spec.min, spec.max]. Throws
// KnobError naming the knob, the value and the range.
void check_value(const TunableSpec& spec, const std::string& value);

// Up to 3 names from `candidates` close to `name` (edit distance <= 3 or a
// shared prefix), closest first; for "did you mean" messages.
std::vector<std::string> close_matches(const std::string& name,
                                       const std::vector<std::string>& candidates);

}  // namespace schedrig::knobs
