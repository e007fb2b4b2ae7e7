// Errors of the external benchmark tools (docs/architecture.md "External
// tools"): a case's `args` or the agent's tool configuration that cannot be
// used (ToolArgsError: the plan is refused before anything runs, exit 2), and
// a run whose output says it failed (ToolRunError: the iteration fails with
// the tool's own words).
#pragma once

#include <stdexcept>
#include <string>

namespace schedrig::tools {

// A case's tool arguments or the tool itself cannot be used: what() names
// the tool, the argument and the reason ("schbench: argument '-r': the run
// time is schedrig's (duration_s); leave it out").
class ToolArgsError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A tool ran but its run does not count: a non-zero exit, a failure line of
// its own, output that does not parse. what() quotes the tool (escaped).
class ToolRunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace schedrig::tools
