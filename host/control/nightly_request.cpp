#include "host/control/nightly_request.h"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "host/control/api_error.h"

namespace schedrig::control {
namespace {

using nlohmann::json;

bool has_control_character(const std::string& s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

std::string field(const json& row, const char* key, std::size_t index) {
  const auto it = row.find(key);
  if (it == row.end() || !it->is_string()) {
    throw ApiError(400, fmt::format("rows[{}]: '{}' must be a string", index, key));
  }
  std::string s = it->get<std::string>();
  if (s.size() > kMaxNightFieldBytes || has_control_character(s)) {
    throw ApiError(400, fmt::format("rows[{}]: '{}' must be at most {} bytes without control "
                                    "characters",
                                    index, key, kMaxNightFieldBytes));
  }
  return s;
}

int verdict_of(const json& row, std::size_t index) {
  const std::string mark = row.contains("verdict") && row["verdict"].is_string()
                               ? row["verdict"].get<std::string>()
                               : std::string("\x01");
  if (mark == "(R)") return -1;
  if (mark.empty()) return 0;
  if (mark == "(I)") return 1;
  if (mark == "?") return 2;
  throw ApiError(400,
                 fmt::format("rows[{}]: 'verdict' must be \"(R)\", \"(I)\", \"\" or \"?\"", index));
}

double change_of(const json& row, std::size_t index) {
  const auto it = row.find("change_pct");
  if (it == row.end() || it->is_null()) return std::nan("");
  if (!it->is_number()) {
    throw ApiError(400, fmt::format("rows[{}]: 'change_pct' must be a number or null", index));
  }
  return it->get<double>();
}

// A boolean key, false when absent; ApiError(400) when not a boolean.
bool flag(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) return false;
  if (!it->is_boolean()) throw ApiError(400, fmt::format("'{}' must be true or false", key));
  return it->get<bool>();
}

}  // namespace

store::NightRecord parse_night_summary(const std::string& body) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    throw ApiError(400, "the body must be a night's summary: a JSON object");
  }
  store::NightRecord night;
  if (!j.contains("night") || !j["night"].is_string()) {
    throw ApiError(400, "'night' must be a string (the night's name)");
  }
  night.night = j["night"].get<std::string>();
  if (night.night.empty() || night.night.size() > 64 || has_control_character(night.night)) {
    throw ApiError(400, "'night' must be 1 to 64 bytes without control characters");
  }
  night.regression = flag(j, "regression");
  night.detector_failed = flag(j, "detector_failed");
  const auto rows = j.find("rows");
  if (rows == j.end() || !rows->is_array()) throw ApiError(400, "'rows' must be an array");
  if (rows->size() > kMaxNightRows) {
    throw ApiError(400, fmt::format("'rows': {} rows; at most {}", rows->size(), kMaxNightRows));
  }
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const json& row = (*rows)[i];
    if (!row.is_object()) throw ApiError(400, fmt::format("rows[{}] must be an object", i));
    store::NightlyVerdictRecord r;
    r.agent_id = field(row, "agent", i);
    r.plan = field(row, "plan", i);
    r.case_name = field(row, "case", i);
    r.variant = field(row, "variant", i);
    r.metric = field(row, "metric", i);
    r.kernel = field(row, "kernel", i);
    r.verdict = verdict_of(row, i);
    r.change_pct = change_of(row, i);
    night.rows.push_back(std::move(r));
  }
  return night;
}

}  // namespace schedrig::control
