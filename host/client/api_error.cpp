#include "host/client/api_error.h"

#include <fmt/format.h>
#include <boost/beast/http/status.hpp>
#include <nlohmann/json.hpp>

#include "common/printable.h"

namespace schedrig::client {
namespace {

// "401 Unauthorized".
std::string status_text(unsigned status) {
  return fmt::format("{} {}", status,
                     std::string(boost::beast::http::obsolete_reason(
                         static_cast<boost::beast::http::status>(status))));
}

// A string field of `j`, "" when absent or of another type.
std::string string_field(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// "FILE:LINE: key 'K': " from a plan error's fields; "" when it has no file.
std::string plan_error_place(const nlohmann::json& j) {
  const std::string file = string_field(j, "file");
  if (file.empty()) return "";
  std::string place = file;
  const auto line = j.find("line");
  if (line != j.end() && line->is_number_integer() && line->get<long long>() > 0) {
    place += fmt::format(":{}", line->get<long long>());
  }
  const std::string key = string_field(j, "key");
  return place + ": " + (key.empty() ? "" : fmt::format("key '{}': ", key));
}

std::string json_error_text(const nlohmann::json& j) {
  const std::string error = string_field(j, "error");
  const std::string place = plan_error_place(j);
  const std::string file = string_field(j, "file");
  if (place.empty() || error.rfind(file + ":", 0) == 0) return error;
  return place + error;
}

}  // namespace

std::string server_error_text(const std::string& body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_object() && j.contains("error")) return printable(json_error_text(j));
  return printable(body.substr(0, kMaxQuotedBody));
}

// A plan error for a knob the agent cannot change (docs/architecture.md
// "HTTP API": 400 with "facility_unavailable": true), exit 3 like the agent's own answer.
bool facility_unavailable(const std::string& body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  return j.is_object() && j.value("facility_unavailable", false);
}

Error api_error(const std::string& origin, unsigned status, const std::string& body) {
  const std::string text = server_error_text(body);
  if (status == 401 || status == 403) {
    return Error(ErrorKind::kUsage,
                 fmt::format("server {} refused the token ({})", origin, status_text(status)));
  }
  if (status >= 400 && status < 500) {
    return Error(
        facility_unavailable(body) ? ErrorKind::kUnreachable : ErrorKind::kUsage,
        text.empty() ? fmt::format("server {} said {}", origin, status_text(status)) : text);
  }
  const std::string what = status >= 500 ? "failed" : "gave an unexpected answer";
  return Error(ErrorKind::kFailed,
               fmt::format("server {} {} ({}){}", origin, what, status_text(status),
                           text.empty() ? "" : ": " + text));
}

}  // namespace schedrig::client
