#include "host/client/api_paths.h"

#include <cctype>

#include <fmt/format.h>

namespace schedrig::client {

std::string percent_encoded(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += fmt::format("%{:02X}", byte);
    }
  }
  return out;
}

std::string agents_path() { return "/api/v1/agents"; }

std::string agent_knobs_path(const std::string& agent) {
  return agents_path() + "/" + percent_encoded(agent) + "/knobs";
}

std::string runs_path(const std::string& state) {
  return state.empty() ? "/api/v1/runs" : "/api/v1/runs?state=" + percent_encoded(state);
}

std::string run_path(const std::string& run) { return "/api/v1/runs/" + percent_encoded(run); }

std::string abort_path(const std::string& run) { return run_path(run) + "/abort"; }

std::string nightly_path() { return "/api/v1/nightly"; }

std::string events_path(const std::string& run, long long after, unsigned wait_s) {
  return fmt::format("{}/events?after={}&wait_s={}", run_path(run), after, wait_s);
}

}  // namespace schedrig::client
