// An error a command reports to its user as one line and an exit code
// (DESIGN.md "Command lines": 1 failed, 2 bad usage or input, 3 unreachable).
#pragma once

#include <stdexcept>
#include <string>

#include "common/exit_codes.h"

namespace schedrig {

class CliError : public std::runtime_error {
 public:
  CliError(int exit_code, const std::string& message)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

}  // namespace schedrig
