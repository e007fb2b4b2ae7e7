// Errors by kind (docs/architecture.md "Command lines"). Every schedrig
// exception that can reach a user derives from schedrig::Error and carries an
// ErrorKind; the exit code and the log level follow from the kind, never from
// the message text. what() is one line for the user.
#pragma once

#include <stdexcept>
#include <string>

#include "common/exit_codes.h"

namespace schedrig {

// What went wrong, as a script or a log reader needs to know it.
enum class ErrorKind {
  kFailed,       // the work ran and failed (exit 1, logged as error)
  kUsage,        // bad usage or input: a flag, a file, a value (exit 2)
  kUnreachable,  // a peer or a kernel facility cannot be reached (exit 3)
  kInterrupted,  // stopped by SIGINT/SIGTERM (exit 130, logged as info)
  kPeerLimit,    // a peer broke a size or count bound (exit 1, logged as warn)
};

// The process exit code for `kind` (common/exit_codes.h).
int exit_code_for(ErrorKind kind);

// The spdlog level name ("error", "warn", "info") to log an error of `kind`.
const char* log_level_for(ErrorKind kind);

// The base of schedrig's exception types.
class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }
  int exit_code() const { return exit_code_for(kind_); }

 private:
  ErrorKind kind_;
};

}  // namespace schedrig
