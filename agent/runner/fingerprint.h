// The system fingerprint taken at run start (DESIGN.md "Identity"): what
// about the box can change a scheduler result besides the kernel itself.
#pragma once

#include <string>

#include "schedrig/v1/result.pb.h"

namespace schedrig::runner {

// Reads ROOT/proc/cmdline, ROOT/sys/kernel/debug/sched/features, cpufreq
// governor and boost, SMT control, THP, and vulnerabilities (mitigations)
// under ROOT ("" = the live machine). A file that cannot be read leaves its
// field out; never throws for missing files.
schedrig::v1::Fingerprint take_fingerprint(const std::string& root = "");

}  // namespace schedrig::runner
