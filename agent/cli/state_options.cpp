#include "agent/cli/state_options.h"

namespace schedrig::agent {

void add_state_options(CLI::App& cmd, StateOptions& o) {
  cmd.add_option("--root", o.root,
                 "directory that prefixes /proc and /sys for knobs, the sampler and the "
                 "quiet-box check (a fake tree for tests); default: the live machine");
  cmd.add_option("--state-dir", o.state_dir,
                 "where the knob restore journal lives (default /var/lib/schedrig as root, else "
                 "$XDG_STATE_HOME/schedrig)");
}

}  // namespace schedrig::agent
