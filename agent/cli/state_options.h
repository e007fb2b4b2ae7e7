// The --root and --state-dir flags every long-running agent command takes;
// what they mean is agent/session/agent_state.h's StateOptions.
#pragma once

#include <CLI/CLI.hpp>

#include "agent/session/agent_state.h"

namespace schedrig::agent {

// "" when `dir` may be a --root (an existing directory), else why not
// ("--root 'x': not an existing directory").
std::string root_problem(const std::string& dir);

// Adds --root and --state-dir to `cmd`, filling `o`.
void add_state_options(CLI::App& cmd, StateOptions& o);

// Adds --run-lock and --run-lock-timeout (the commands that run plans:
// `run`, `connect`), filling `o` (common/run_lock.h).
void add_run_lock_options(CLI::App& cmd, RunLockOptions& o);

// Adds --tool NAME=PATH (repeatable; the commands that run plans), kept as
// given in `raw` for apply_tool_flags: which binary runs for an external
// tool (agent/tools/tool_paths.h), over the config's tools: entry.
void add_tool_options(CLI::App& cmd, std::vector<std::string>& raw);

// Sets each --tool of `raw` in `paths`. Throws CliError(kUsage) naming the
// flag's text and why ToolPaths refuses it.
void apply_tool_flags(tools::ToolPaths& paths, const std::vector<std::string>& raw);

}  // namespace schedrig::agent
