// The spool's ack file, STATE/spool/acks (docs/architecture.md "Spool"): the
// highest seq the host acked per instance that still has segments, so a
// restarted agent does not replay what was acked. The 8-byte magic
// "SCHEDACK", a version byte (1), then one checked record
// (common/record/record_frame.h) per instance: le64 seq, then the instance
// id. It is replaced whole (written to acks.tmp, renamed) and not fsynced:
// losing it only replays acked envelopes, which the host stores once
// (idempotent on agent, instance, seq) and acks again.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace schedrig::spool {

using AckedSeqs = std::map<std::string, std::uint64_t>;  // instance id -> highest acked seq

inline constexpr char kAckFileName[] = "acks";

// The acks in `dirfd`'s ack file; empty when there is none. A damaged file
// keeps the records before the damage and logs a warning naming `dir`.
AckedSeqs load_acks(int dirfd, const std::string& dir);

// Replaces the ack file with `acks`. Throws SpoolError.
void save_acks(int dirfd, const std::string& dir, const AckedSeqs& acks);

}  // namespace schedrig::spool
