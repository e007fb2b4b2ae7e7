// A request target of the HTTP API split into what the routes read:
// "/api/v1/runs/ab12/events?after=5&wait_s=10" -> segments {"runs", "ab12",
// "events"} and query {after: "5", wait_s: "10"} (docs/architecture.md "HTTP API").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace schedrig::control {

struct ApiTarget {
  std::vector<std::string> segments;  // after "/api/v1", percent-decoded
  std::map<std::string, std::string> query;
};

// nullopt when the target is not under /api/v1/ or is malformed (a bad
// %-escape, an empty segment).
std::optional<ApiTarget> parse_api_target(const std::string& target);

// The query value `key` as an integer in [min, max]; `fallback` when absent.
// Throws ApiError 400 naming the key and the value.
long long query_int(const ApiTarget& t, const std::string& key, long long fallback, long long min,
                    long long max);

}  // namespace schedrig::control
