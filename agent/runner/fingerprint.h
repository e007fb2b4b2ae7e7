// The system fingerprint taken at run start (DESIGN.md "Identity"): what
// about the box can change a scheduler result besides the kernel itself.
#pragma once

#include <string>

#include "schedrig/v1/result.pb.h"

namespace schedrig::runner {

// Reads, under ROOT ("" = the live machine): /proc/cmdline, the sched
// features line, a hash of the kernel config (/proc/config.gz, else
// /boot/config-RELEASE), cpufreq driver/governor/boost, SMT control, THP
// mode, isolcpus/nohz_full, autogroup, microcode (/proc/cpuinfo), and every
// CPU vulnerability (mitigation) line. fields[] holds "unknown" for a source
// that cannot be read; never throws.
schedrig::v1::Fingerprint take_fingerprint(const std::string& root = "");

}  // namespace schedrig::runner
