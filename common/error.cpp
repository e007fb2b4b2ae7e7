#include "common/error.h"

namespace schedrig {

int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage:
      return kExitUsage;
    case ErrorKind::kUnreachable:
      return kExitUnreachable;
    case ErrorKind::kInterrupted:
      return kExitInterrupted;
    case ErrorKind::kFailed:
    case ErrorKind::kPeerLimit:
      break;
  }
  return kExitFailed;
}

const char* log_level_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInterrupted:
      return "info";
    case ErrorKind::kPeerLimit:
      return "warn";
    case ErrorKind::kFailed:
    case ErrorKind::kUsage:
    case ErrorKind::kUnreachable:
      break;
  }
  return "error";
}

}  // namespace schedrig
