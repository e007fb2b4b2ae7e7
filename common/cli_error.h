// An error a command reports to its user as one line and an exit code
// (docs/architecture.md "Command lines": 1 failed, 2 bad usage or input,
// 3 unreachable, 130 interrupted).
#pragma once

#include <string>

#include "common/error.h"

namespace schedrig {

// A schedrig::Error raised by a command itself; `kind` gives the exit code.
class CliError : public Error {
 public:
  CliError(ErrorKind kind, const std::string& message) : Error(kind, message) {}
};

}  // namespace schedrig
