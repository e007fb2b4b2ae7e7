// The system fingerprint taken at run start (docs/architecture.md "Identity"): what
// about the box can change a scheduler result besides the kernel itself.
#pragma once

#include <string>

#include "common/procfs/root.h"
#include "schedrig/v1/result.pb.h"

namespace schedrig::runner {

// Reads, under `root` (the live machine, or a fake tree for a fake-root
// run), through the shared procfs reader: /proc/cmdline, the sched
// features line, a hash of the kernel config (/proc/config.gz, else
// /boot/config-RELEASE), cpufreq driver/governor/boost, SMT control, THP
// mode, isolcpus/nohz_full, autogroup, microcode (/proc/cpuinfo), and every
// CPU vulnerability (mitigation) line, and the knob settings the box
// applies at boot (persisted_knobs: tmpfiles.d and sysctl.d,
// agent/knobs/persisted_knobs.h; "none" when there are none). fields[] holds "unknown" for a source
// that cannot be read; never throws. The kernel release is uname(2)'s, or a
// fake tree's proc/sys/kernel/osrelease when it has one (common/ids.h).
schedrig::v1::Fingerprint take_fingerprint(const procfs::Root& root = procfs::Root::live());

}  // namespace schedrig::runner
