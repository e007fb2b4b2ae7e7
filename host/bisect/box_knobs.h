// The box as found, for bisect-knobs' candidates (host/bisect/candidates.h):
// read from `schedrig-agent knobs list --json` (the agent is the authority
// on what it can change: its allowlist, its root, its errors).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "host/bisect/candidates.h"

namespace schedrig::bisect {

// Parses the agent's `knobs list --json` document. Throws
// std::invalid_argument naming what is missing or malformed; at most 512
// features and 256 knobs are read (more is refused).
BoxKnobs parse_knobs_list(const nlohmann::json& doc);

// Runs `AGENT [--root ROOT] [--state-dir DIR] knobs list --json` on this
// machine (no shell; stdout bounded to 1 MiB) and parses it. Throws
// CliError: kUnreachable when the agent cannot be run or fails, kUsage
// when its output is not the document.
BoxKnobs read_local_box_knobs(const std::string& agent, const std::string& root,
                              const std::string& state_dir);

}  // namespace schedrig::bisect
