// Knob settings the box applies to itself at every boot, before any run
// (docs/architecture.md "Identity"): a tmpfiles.d `w` line that writes a
// sched feature or a debugfs sched tunable (the RHEL 10.2 mitigation:
// `w- /sys/kernel/debug/sched/features - - - - NO_NI_RANDOM`, tmpfiles.d(5)),
// or an allowlisted sysctl; a sysctl.d setting of an allowlisted sysctl
// (sysctl.d(5)). They change what "the box as found" means, so every run's
// fingerprint records them (agent/runner/fingerprint.h) and `compare`
// names them.
#pragma once

#include <string>
#include <vector>

#include "common/procfs/root.h"

namespace schedrig::knobs {

// One persisted setting.
struct PersistedKnob {
  std::string knob;    // "sched_features", "sched/base_slice_ns", "kernel.numa_balancing"
  std::string value;   // as the file writes it, escaped by common/printable.h
  std::string source;  // "/etc/tmpfiles.d/schedrig.conf:3" (the path on the box, not ROOT's)
};

// The settings the configuration under `root` applies at boot, in the order
// the tools apply them: tmpfiles.d, then sysctl.d and /etc/sysctl.conf.
// Directories are read as the tools read them: /etc, /run, /usr/local/lib,
// /usr/lib; a file name in an earlier one masks the same name in a later
// one; files in name order. Unreadable files and directories are skipped;
// at most 256 files a directory, 1 MiB a file and 64 settings are read
// (what is past the bound is left out). Never throws.
std::vector<PersistedKnob> persisted_knobs(const procfs::Root& root);

// "sched_features=NO_NI_RANDOM (/etc/tmpfiles.d/x.conf:1); kernel.numa_balancing=0
// (/etc/sysctl.d/60-schedrig.conf:2)", or "none".
std::string persisted_knobs_text(const std::vector<PersistedKnob>& knobs);

}  // namespace schedrig::knobs
