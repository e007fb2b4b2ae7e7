// Errors of the agent's spool (docs/architecture.md "Spool"): the spool
// directory cannot be made or opened (ErrorKind::kUsage, exit 2, like the
// state dir), or a segment cannot be written, synced or read (kFailed).
// what() names the file and the reason.
#pragma once

#include "common/error.h"

namespace schedrig::spool {

class SpoolError : public schedrig::Error {
 public:
  using schedrig::Error::Error;
};

// A new segment could not be made for want of space (ENOSPC, EDQUOT): the
// spool answers that like a full spool.
class SpoolNoSpace : public SpoolError {
 public:
  using SpoolError::SpoolError;
};

// A file in the spool that is not a regular file (a FIFO, a link), is
// owned by another user or is writable by group or other (spool_fs.h
// open_trusted): recovery sets it aside, never replays it.
class SpoolUnsafeFile : public SpoolError {
 public:
  SpoolUnsafeFile(const std::string& message, bool foreign)
      : SpoolError(ErrorKind::kFailed, message), foreign_(foreign) {}
  bool foreign() const { return foreign_; }

 private:
  bool foreign_;
};

}  // namespace schedrig::spool
