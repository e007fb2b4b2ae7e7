// Process exit codes shared by schedrig and schedrig-agent
// (docs/architecture.md "Command lines").
#pragma once

namespace schedrig {

enum ExitCode : int {
  kExitOk = 0,
  // The work ran and failed (or `compare --fail-on regression` found one).
  kExitFailed = 1,
  // Bad usage or input: CLI11's own parse errors are mapped here too.
  kExitUsage = 2,
  // Cannot reach a peer or a kernel facility (an unwritable knob).
  kExitUnreachable = 3,
  // Stopped by SIGINT (Ctrl-C): 128 + SIGINT, as shells report it.
  kExitInterrupted = 130,
};

}  // namespace schedrig
