// The results store a host command uses when --db is not given
// (docs/architecture.md "Command lines"): lab and serve write it, the read
// commands read it.
#pragma once

#include <string>

namespace schedrig::store {

// default_state_dir()/schedrig.db (common/state_dir.h): /var/lib/schedrig as
// root, else $XDG_STATE_HOME/schedrig. Creates the directory; throws
// CliError (exit 2) naming it when it cannot be created.
std::string default_db_path();

// default_state_dir()/tokens, beside schedrig.db: the tokens file `serve`
// loads and `token new` appends to (docs/architecture.md "Tokens"). Creates
// the directory like default_db_path.
std::string default_tokens_path();

}  // namespace schedrig::store
