// The box as found, for bisect-knobs' candidates (host/bisect/candidates.h):
// read from `schedrig-agent knobs list --json` (the agent is the authority
// on what it can change: its allowlist, its root, its errors).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/bisect/candidates.h"
#include "host/store/records.h"

namespace schedrig::bisect {

// Parses the agent's `knobs list --json` document, or the server's GET
// /api/v1/agents/ID/knobs (the same shape, plus bisect_deny and
// instance_id). Throws std::invalid_argument naming what is missing or
// malformed; at most 512 features, 256 knobs and 256 deny names are read
// (more is refused).
BoxKnobs parse_knobs_list(const nlohmann::json& doc);

// Runs `AGENT [--root ROOT] [--state-dir DIR] knobs list --json` on this
// machine (no shell; stdout bounded to 1 MiB) and parses it. Throws
// CliError: kUnreachable when the agent cannot be run or fails, kUsage
// when its output is not the document.
BoxKnobs read_local_box_knobs(const std::string& agent, const std::string& root,
                              const std::string& state_dir);

// The knobs a probe's as-found iterations ran with (IterationRecord::knobs,
// which the agent reads back after setting each variant) that differ from
// `before`: "NAME: WAS -> SEEN" each, once per knob, in name order; empty
// when the probe found the box as `before` says. A knob `before` has no
// value for is not judged.
std::vector<std::string> as_found_drift(const BoxKnobs& before, const store::RunRecord& probe);

// The differences between two readings of a box, " NAME: A -> B" each; ""
// when none.
std::string box_changes(const BoxKnobs& before, const BoxKnobs& after);

}  // namespace schedrig::bisect
