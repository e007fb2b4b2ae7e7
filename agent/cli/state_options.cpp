#include "agent/cli/state_options.h"

#include <filesystem>

#include <fmt/format.h>

namespace schedrig::agent {

// An explicit --root must name an existing directory: "" (an unset shell
// variable) or a typo must not silently mean the live machine.
std::string root_problem(const std::string& value) {
  std::error_code ec;
  if (value.empty()) {
    return "--root '': empty; leave --root out for the live machine";
  }
  if (!std::filesystem::is_directory(value, ec)) {
    return fmt::format("--root '{}': not an existing directory", value);
  }
  return "";
}

void add_state_options(CLI::App& cmd, StateOptions& o) {
  cmd.add_option("--root", o.root,
                 "existing directory that prefixes /proc and /sys for knobs, the sampler and the "
                 "quiet-box check (a fake tree for tests); default (flag absent): the live "
                 "machine; an empty or missing directory is a usage error")
      ->check(CLI::Validator(root_problem, "DIR"));
  cmd.add_option("--state-dir", o.state_dir,
                 "where the knob restore journal lives (default /var/lib/schedrig as root, else "
                 "$XDG_STATE_HOME/schedrig); it and its spool must belong to this user or root and "
                 "be writable by no one else (chmod 0700), else exit 2");
}

}  // namespace schedrig::agent
