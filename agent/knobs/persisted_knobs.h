// Knob settings the box applies to itself at every boot, before any run
// (docs/architecture.md "Identity"): a tmpfiles.d `w` line that writes a
// sched feature or a debugfs sched tunable (the RHEL 10.2 mitigation:
// `w- /sys/kernel/debug/sched/features - - - - NO_NI_RANDOM`, tmpfiles.d(5)),
// or an allowlisted sysctl; a sysctl.d setting of an allowlisted sysctl
// (sysctl.d(5)). They change what "the box as found" means, so every run's
// fingerprint records them (agent/runner/fingerprint.h) and `compare`
// names them.
#pragma once

#include <cstddef>
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

// What the configuration applies at boot, and what could not be read of it.
struct PersistedKnobs {
  std::vector<PersistedKnob> settings;
  std::size_t left_out = 0;         // settings and files past the bounds
  std::vector<std::string> unread;  // "/etc/sysctl.d/x.conf: over 1 MiB", escaped
  // Scheduler settings that name no knob schedrig knows, with where:
  // "/etc/tmpfiles.d/x.conf:3 /sys/kernel/debug/sched/new_knob*" (escaped).
  std::vector<std::string> unrecognised;
};

// The settings the configuration under `root` applies at boot, in the order
// the tools apply them: tmpfiles.d, then sysctl.d and /etc/sysctl.conf.
// Directories are read as the tools read them: /etc, /run, /usr/local/lib,
// /usr/lib; a file name in an earlier one masks the same name in a later
// one; *.conf files in name order. A .conf that is a link to /dev/null
// masks and says nothing; another link is followed once (an absolute target
// is taken under `root`); only regular files are opened. Paths and keys are
// read as systemd reads them, quotes, escapes and globs included
// (agent/knobs/persisted_paths.h). At most 256 .conf files a directory kind, 1 MiB a
// file and 64 settings are read: what is past a bound counts in `left_out`,
// a file too large or unreadable is named in `unread`. Missing directories
// are none. Never throws.
PersistedKnobs persisted_knobs(const procfs::Root& root);

// "sched_features=NO_NI_RANDOM (/etc/tmpfiles.d/x.conf:1); kernel.numa_balancing=0
// (/etc/sysctl.d/60-schedrig.conf:2)", then "; +N more", "; unrecognised
// FILE:LINE PATH" and "; unread FILE: REASON" when there are such, or "none". In knobs, values and
// sources ';',
// '(' and ')' are written \x3b, \x28, \x29, so no value can pass for an
// entry of its own.
std::string persisted_knobs_text(const PersistedKnobs& knobs);

}  // namespace schedrig::knobs
