// Opening a spool directory after a clean stop or a crash
// (docs/architecture.md "Spool"). Every segment is read and checked:
// - an empty file (a crash while creating it) is removed;
// - a bad header (magic, version, CRC, cut short) renames the file
//   NAME.damaged, kept for a person and never read again;
// - a torn last record (the file ends inside it: a crash mid-write) is cut off;
// - a bad CRC, an impossible length, an undecodable envelope, one of another
//   instance or a seq not above the one before stops that segment there:
//   nothing after the damage is replayed (later segments are, each checked
//   on its own).
// Each finding is a RecoveryNote (file, byte offset, what) and a warning.
#pragma once

#include <string>

#include "agent/spool/ack_file.h"
#include "agent/spool/spool_state.h"

namespace schedrig::spool {

// Reads every segment in `dirfd` (`dir` names it in notes and logs), with
// `acks` as each instance's acked seq. Throws SpoolError on an I/O error.
SpoolContents recover(int dirfd, const std::string& dir, const AckedSeqs& acks);

}  // namespace schedrig::spool
