// Kernel knobs schedrig may change (docs/architecture.md "Knobs"): sched features
// (Documentation/scheduler/sched-debug.rst; /sys/kernel/debug/sched/features),
// sysctls (Documentation/admin-guide/sysctl/kernel.rst; /proc/sys/kernel/*)
// and debugfs sched tunables (/sys/kernel/debug/sched/*). One naming scheme
// for plans, the CLI and the journal:
//   NI_RANDOM / NO_NI_RANDOM          a feature on / off
//   kernel.numa_balancing=0           a sysctl
//   sched/migration_cost_ns=500000    a debugfs tunable
#pragma once

#include <stdexcept>
#include <string>

namespace schedrig::knobs {

enum class KnobKind { kFeature, kSysctl, kDebugfs };

// A knob and, where set, the value to give it.
struct KnobSetting {
  KnobKind kind = KnobKind::kSysctl;
  std::string name;   // "NI_RANDOM", "kernel.numa_balancing", "sched/migration_cost_ns"
  std::string value;  // features: "on" | "off"; others: the decimal value; "" = the original
};

// Bad input: an unknown or malformed name, a value of the wrong type, a path
// that would leave the root. what() names the knob and the reason. Exit 2.
class KnobError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The kernel facility is missing or locked (ENOENT, EPERM, EACCES...), or a
// write did not take. what() names the knob, the path and the errno. Exit 3.
class KnobUnavailable : public KnobError {
 public:
  KnobUnavailable(const std::string& message, int err) : KnobError(message), errno_value_(err) {}
  int errno_value() const { return errno_value_; }

 private:
  int errno_value_;
};

// "feature", "sysctl", "debugfs".
const char* kind_name(KnobKind kind);

// Parses the console/plan syntax above. With `value_required`, a sysctl or
// tunable without "=VALUE" is an error; a feature token carries its value in
// its NO_ prefix. Checks the name against the allowlist (sysctls, tunables)
// or the feature-name shape (A-Z, 0-9, _), and the value against its type.
// Throws KnobError.
KnobSetting parse_knob(const std::string& text, bool value_required);

// The token to write to the features file for a feature setting
// ("NO_NI_RANDOM" for NI_RANDOM=off), or NAME=VALUE for the others.
std::string knob_text(const KnobSetting& setting);

}  // namespace schedrig::knobs
