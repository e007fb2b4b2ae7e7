// The API's agent and queue lists (docs/architecture.md "HTTP API") as the
// report's records, for `schedrig agents --server` and `schedrig queue`.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "host/report/live_agents_report.h"
#include "host/report/queue_report.h"

namespace schedrig::client {

// GET /api/v1/agents's {"agents":[...]}. Throws Error(kFailed) naming a
// missing key or a wrong type.
std::vector<report::LiveAgent> live_agents_from_json(const nlohmann::json& j);

// GET /api/v1/runs's {"runs":[...]}. Throws as live_agents_from_json.
std::vector<report::QueueEntry> queue_from_json(const nlohmann::json& j);

}  // namespace schedrig::client
