// Wire enum values as the words results use ("ok", "higher_is_better").
#pragma once

#include <string>

#include "schedrig/v1/result.pb.h"

namespace schedrig {

// "ok", "failed", "aborted"; "unspecified" for STATUS_UNSPECIFIED.
std::string status_name(schedrig::v1::Status status);

// status_name as results store it: an unset status is an agent bug, so
// STATUS_UNSPECIFIED is "failed" (never ok).
std::string stored_status_name(schedrig::v1::Status status);

// The header of an agent's live upgrade request that says how many
// envelopes its spool held unacknowledged as it dialled (what replay will
// send; docs/architecture.md "Wire protocol"): decimal, at most 20 digits.
inline constexpr const char* kSpoolBacklogHeader = "X-Schedrig-Spool-Backlog";

// "higher_is_better", "lower_is_better"; "" for DIRECTION_UNSPECIFIED.
std::string direction_name(schedrig::v1::Direction direction);

}  // namespace schedrig
