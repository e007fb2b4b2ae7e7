// The API's paths (docs/architecture.md "HTTP API"), with run ids
// percent-encoded so a typed id can never change the path.
#pragma once

#include <string>
#include <string_view>

namespace schedrig::client {

// `text` with every byte outside RFC 3986's unreserved set as %HH.
std::string percent_encoded(std::string_view text);

std::string agents_path();                               // /api/v1/agents
std::string agent_knobs_path(const std::string& agent);  // /api/v1/agents/ID/knobs
std::string runs_path(const std::string& state = "");    // /api/v1/runs[?state=S]
std::string run_path(const std::string& run);            // /api/v1/runs/ID
std::string abort_path(const std::string& run);          // /api/v1/runs/ID/abort
std::string nightly_path();                              // /api/v1/nightly
// /api/v1/runs/ID/events?after=N&wait_s=S
std::string events_path(const std::string& run, long long after, unsigned wait_s);

}  // namespace schedrig::client
