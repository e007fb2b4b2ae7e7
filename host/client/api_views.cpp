#include "host/client/api_views.h"

#include "host/client/json_read.h"

namespace schedrig::client {
namespace {

using nlohmann::json;

report::LiveAgent live_agent_of(const json& j) {
  report::LiveAgent a;
  a.agent_id = j.at("agent_id").get<std::string>();
  a.connected = j.at("connected").get<bool>();
  a.state = j.at("state").get<std::string>();
  a.run_id = j.value("run_id", "");
  a.waiting = j.value("waiting", "");
  a.queued = j.value("queued", 0u);
  a.hostname = j.value("hostname", "");
  a.kernel_release = j.value("kernel_release", "");
  a.pus = j.value("pus", 0u);
  a.allowed_pus = j.value("allowed_pus", 0u);
  a.peer = j.value("peer", "");
  a.instance_id = j.value("instance_id", "");
  a.last_seen_ns = j.value("last_seen_ns", 0LL);
  return a;
}

report::QueueEntry queue_entry_of(const json& j) {
  report::QueueEntry e;
  e.run_id = j.at("run_id").get<std::string>();
  e.agent_id = j.at("agent_id").get<std::string>();
  e.plan_name = j.value("plan_name", "");
  e.state = j.at("state").get<std::string>();
  e.reason = j.value("reason", "");
  e.waiting = j.value("waiting", "");
  if (j.contains("labels")) e.labels = string_map(j.at("labels"));
  e.submitted_by = j.value("submitted_by", "");
  e.submitted_at_ns = j.value("submitted_at_ns", 0LL);
  e.dispatched_at_ns = j.value("dispatched_at_ns", 0LL);
  e.finished_at_ns = j.value("finished_at_ns", 0LL);
  e.queue_position = j.value("queue_position", -1);
  return e;
}

}  // namespace

std::vector<report::LiveAgent> live_agents_from_json(const json& j) {
  return reading("agents", [&] {
    std::vector<report::LiveAgent> out;
    for (const auto& a : j.at("agents")) out.push_back(live_agent_of(a));
    return out;
  });
}

std::vector<report::QueueEntry> queue_from_json(const json& j) {
  return reading("queue", [&] {
    std::vector<report::QueueEntry> out;
    for (const auto& e : j.at("runs")) out.push_back(queue_entry_of(e));
    return out;
  });
}

std::optional<json> agent_row_from_json(const json& j, const std::string& agent_id,
                                        std::vector<std::string>* others) {
  if (!j.is_object() || !j.contains("agents") || !j["agents"].is_array()) return std::nullopt;
  for (const json& a : j["agents"]) {
    if (!a.is_object() || !a.contains("agent_id") || !a["agent_id"].is_string()) continue;
    if (a["agent_id"] == agent_id) return a;
    if (others && others->size() < 20) others->push_back(a["agent_id"].get<std::string>());
  }
  return std::nullopt;
}

}  // namespace schedrig::client
