// What every long-running agent command does first: pick the knob root and
// state dir (the --root/--state-dir flags, agent/cli/state_options.h), and
// restore a journal that survived a crash of this boot
// (docs/architecture.md "Knobs"). Also the capability probe Hello carries.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "agent/knobs/knob_controller.h"
#include "agent/runner/runner.h"
#include "agent/tools/tool_paths.h"
#include "common/run_lock.h"
#include "schedrig/v1/hello.pb.h"

namespace schedrig::agent {

struct StateOptions {
  std::string root;           // prefixes /proc and /sys; "" = the live machine
  std::string state_dir;      // "" = default_state_dir()
  RunLockOptions run_lock{};  // --run-lock, --run-lock-timeout (common/run_lock.h)
  tools::ToolPaths tools{};  // --tool NAME=PATH, the config's tools: map (agent/tools/tool_paths.h)
};

// The state dir `o` names (default_state_dir() when unset), created 0700 if
// missing (common/state_dir.h). Throws CliError (exit 2) when it cannot be,
// or when it is owned by another user than the euid and root or writable by
// group or other (naming the path, owner, mode and "chown root and chmod
// 0700": agent/spool/dir_trust.h), or when its knob journal is not a
// regular file of the euid or root, or is writable by group or other
// (knobs::journal_trust_problem).
std::string state_dir_of(const StateOptions& o);

// A controller for `o`, after recover(): a journal of this boot is restored
// and logged. Throws CliError (exit 3) when the restore fails.
std::unique_ptr<knobs::KnobController> open_knobs(const StateOptions& o);

// The knob capabilities for Hello.
void add_knob_capabilities(const knobs::KnobController& k, schedrig::v1::Hello& hello);

// The runner's options for the same root as the knobs: /proc and /sys are
// read under k.root(); `run_lock` (when given) is taken by every run;
// external tools run from `tools`.
runner::RunOptions run_options(const knobs::KnobController& k, const tools::ToolPaths& tools,
                               std::optional<RunLockOptions> run_lock = std::nullopt);

// Each /proc source the sampler reads under k.root(), present or not with
// the reason (sampler::probe_sources), into hello.sources.
void add_source_capabilities(const knobs::KnobController& k, schedrig::v1::Hello& hello);

}  // namespace schedrig::agent
