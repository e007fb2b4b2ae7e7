#include "agent/cli/state_options.h"

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "agent/tools/tool_error.h"
#include "common/cli_error.h"
#include "common/parse_whole.h"

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

namespace {

// --run-lock-timeout: a number of seconds from 0 to 7 days. CLI::Range
// alone lets NaN through (every comparison with it is false).
std::string timeout_problem(const std::string& value) {
  const auto s = try_parse_whole<double>(value);
  if (!s || std::isnan(*s) || *s < 0 || *s > 7 * 86400.0) {
    return fmt::format("--run-lock-timeout '{}': not a number of seconds from 0 to 604800", value);
  }
  return "";
}

}  // namespace

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

void add_run_lock_options(CLI::App& cmd, RunLockOptions& o) {
  cmd.add_option("--run-lock", o.path,
                 "the machine-wide run lock every run holds, so runs never overlap (default "
                 "$SCHEDRIG_RUN_LOCK, else /run/schedrig/run.lock on the real /run whatever "
                 "--root says); its directory is created 0755 and must belong to this user or "
                 "root and be writable by no one else, else exit 2");
  cmd.add_option("--run-lock-timeout", o.timeout_s,
                 "seconds a run waits for the run lock another run holds (saying so every 10 s); "
                 "0 (default) = as long as it takes; `run` exits 3 when it runs out, a run of "
                 "`connect` fails")
      ->check(CLI::Validator(timeout_problem, "SECONDS"));
}

void add_tool_options(CLI::App& cmd, std::vector<std::string>& raw) {
  cmd.add_option("--tool", raw,
                 "NAME=PATH: the binary that runs for external tool NAME (schbench, stress-ng, "
                 "hackbench, perf for perf-bench-sched), an absolute path (for connect: over "
                 "its --config tools: entry); default: Debian's paths and "
                 "/usr/local/bin/schbench; it must be root-owned and writable by no one else "
                 "(checked when a plan names the tool); repeatable")
      ->check(CLI::Validator([](const std::string& text) { return tools::tool_path_problem(text); },
                             "NAME=PATH"));
}

void apply_tool_flags(tools::ToolPaths& paths, const std::vector<std::string>& raw) {
  for (const std::string& text : raw) {
    try {
      tools::set_tool_path(paths, text);
    } catch (const tools::ToolArgsError& e) {
      throw CliError(ErrorKind::kUsage, e.what());
    }
  }
}

}  // namespace schedrig::agent
