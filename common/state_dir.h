// Where schedrig keeps state (docs/architecture.md "Command lines"): /var/lib/schedrig
// as root, else $XDG_STATE_HOME/schedrig (default ~/.local/state/schedrig).
#pragma once

#include <string>

namespace schedrig {

// The default state dir, created if missing. Throws CliError (exit 2)
// naming the directory when it cannot be created.
std::string default_state_dir();

}  // namespace schedrig
