// Where schedrig keeps state (docs/architecture.md "Command lines"):
// $SCHEDRIG_STATE_DIR when set, else /var/lib/schedrig as root, else
// $XDG_STATE_HOME/schedrig (default ~/.local/state/schedrig).
#pragma once

#include <string>

namespace schedrig {

// The default state dir, created if missing (see create_state_dir). Throws
// CliError (exit 2) naming the directory when it cannot be created.
std::string default_state_dir();

// Creates `dir` and its missing parents. `dir` itself, when this call
// creates it, gets mode 0700 whatever the umask (it holds the store and the
// tokens); an existing one is left as it is. Throws CliError (exit 2) naming
// the directory when it cannot be created.
void create_state_dir(const std::string& dir);

}  // namespace schedrig
