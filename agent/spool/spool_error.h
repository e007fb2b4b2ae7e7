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

}  // namespace schedrig::spool
