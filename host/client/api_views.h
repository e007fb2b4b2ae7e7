// The API's agent and queue lists (docs/architecture.md "HTTP API") as the
// report's records, for `schedrig agents --server` and `schedrig queue`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/report/live_agents_report.h"
#include "host/report/queue_report.h"

namespace schedrig::client {

// GET /api/v1/agents's {"agents":[...]}. Throws Error(kFailed) naming a
// missing key or a wrong type.
std::vector<report::LiveAgent> live_agents_from_json(const nlohmann::json& j);

// The row of `agent_id` in GET /api/v1/agents's {"agents":[...]}, or
// nullopt when the server does not list it; then `others` (when given)
// holds up to 20 of the ids it does list, for the error. Rows that are not
// objects with a string agent_id are passed over.
std::optional<nlohmann::json> agent_row_from_json(const nlohmann::json& j,
                                                  const std::string& agent_id,
                                                  std::vector<std::string>* others = nullptr);

// GET /api/v1/runs's {"runs":[...]}. Throws as live_agents_from_json.
std::vector<report::QueueEntry> queue_from_json(const nlohmann::json& j);

}  // namespace schedrig::client
