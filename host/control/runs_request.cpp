#include "host/control/runs_request.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/auth/token.h"
#include "common/printable.h"
#include "host/control/api_error.h"

namespace schedrig::control {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& why) { throw ApiError(400, why); }

json parse_object(const std::string& body) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) bad("body: not JSON");
  if (!j.is_object()) bad("body: want a JSON object");
  for (const auto& [key, value] : j.items()) {
    if (key != "agents" && key != "all" && key != "plan_yaml" && key != "plan_name" &&
        key != "labels" && key != "check_only") {
      bad(fmt::format("body: unknown key '{}'", printable(key)));
    }
  }
  return j;
}

std::vector<std::string> parse_agents(const json& j) {
  if (!j.is_array()) bad("agents: want a list of agent ids");
  if (j.size() > kMaxAgentsPerSubmit) {
    bad(fmt::format("agents: {} agents; at most {} per request", j.size(), kMaxAgentsPerSubmit));
  }
  std::vector<std::string> out;
  for (const json& id : j) {
    // Never dump() what the client sent: a deeply nested value would recurse.
    if (!id.is_string()) bad(fmt::format("agents: a {} is not an agent id", id.type_name()));
    if (!auth::valid_principal_name(id.get<std::string>())) {
      bad(fmt::format("agents: '{}' is not an agent id",
                      printable(id.get<std::string>().substr(0, 200))));
    }
    if (std::find(out.begin(), out.end(), id.get<std::string>()) != out.end()) {
      bad(fmt::format("agents: '{}' given twice", id.get<std::string>()));
    }
    out.push_back(id.get<std::string>());
  }
  if (out.empty()) bad("agents: empty; name at least one agent or use all");
  return out;
}

std::map<std::string, std::string> parse_labels(const json& j) {
  if (!j.is_object()) bad("labels: want an object of strings");
  if (j.size() > kMaxLabels)
    bad(fmt::format("labels: {} labels; at most {}", j.size(), kMaxLabels));
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : j.items()) {
    if (!value.is_string()) bad(fmt::format("labels: '{}': want a string", printable(key)));
    if (!label_fits(key, value.get<std::string>())) {
      bad(fmt::format("labels: '{}': {}", printable(key.substr(0, 200)), label_bounds_text()));
    }
    out[key] = value.get<std::string>();
  }
  return out;
}

std::string string_field(const json& j, const char* key, const std::string& fallback) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_string()) bad(fmt::format("{}: want a string", key));
  return j[key].get<std::string>();
}

}  // namespace

Submission parse_runs_request(const std::string& body) {
  const json j = parse_object(body);
  Submission s;
  if (j.contains("all")) {
    if (!j["all"].is_boolean()) bad("all: want true or false");
    s.all = j["all"].get<bool>();
  }
  if (j.contains("agents") == s.all) bad("give either agents:[ID...] or all:true");
  if (!s.all) s.agents = parse_agents(j["agents"]);
  if (!j.contains("plan_yaml")) bad("plan_yaml: missing");
  const std::string yaml = string_field(j, "plan_yaml", "");
  s.plan_name = string_field(j, "plan_name", "plan.yaml");
  if (s.plan_name.empty() || s.plan_name.size() > kMaxPlanNameBytes) {
    bad(fmt::format("plan_name: want 1..{} bytes", kMaxPlanNameBytes));
  }
  if (j.contains("labels")) s.labels = parse_labels(j["labels"]);
  if (j.contains("check_only")) {
    if (!j["check_only"].is_boolean()) bad("check_only: want true or false");
    s.check_only = j["check_only"].get<bool>();
  }
  try {
    s.plan = parse_plan_yaml(yaml, s.plan_name, &s.lines);
  } catch (const PlanError& e) {
    throw ApiError(400, plan_error_json(e));
  }
  return s;
}

json plan_error_json(const PlanError& e) {
  return {{"error", e.what()},  {"file", e.file()},
          {"line", e.line()},   {"key", e.key()},
          {"value", e.value()}, {"facility_unavailable", e.kind() == ErrorKind::kUnreachable}};
}

std::map<std::string, std::string> merged_labels(const v1::Plan& plan,
                                                 const std::map<std::string, std::string>& labels) {
  std::map<std::string, std::string> out(plan.labels().begin(), plan.labels().end());
  for (const auto& [k, v] : labels) out[k] = v;
  return out;
}

}  // namespace schedrig::control
