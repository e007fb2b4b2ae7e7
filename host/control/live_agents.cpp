#include "host/control/live_agents.h"

#include <algorithm>

#include "common/envelope_codec.h"
#include "common/ids.h"

namespace schedrig::control {

void LiveAgents::connect(const std::shared_ptr<collector::AgentChannel>& channel,
                         const v1::Envelope& env) {
  LiveAgent& agent = agents_[env.agent_id()];
  agent = LiveAgent{};
  agent.channel = channel;
  agent.instance_id = env.instance_id();
  agent.boot_id = env.boot_id();
  agent.hello = env.hello();
  agent.last_seen_ns = wall_clock_ns();  // the host's clock: an agent cannot pin it
}

std::optional<std::string> LiveAgents::disconnect(const std::string& agent_id,
                                                  const collector::AgentChannel& channel) {
  auto it = agents_.find(agent_id);
  if (it == agents_.end() || it->second.channel.get() != &channel) return std::nullopt;
  std::string run_id = it->second.run_id;
  agents_.erase(it);
  return run_id;
}

void LiveAgents::saw(const v1::Envelope& env) {
  LiveAgent* agent = find(env.agent_id());
  if (!agent || agent->instance_id != env.instance_id()) return;
  agent->last_seen_ns = std::max<long long>(agent->last_seen_ns, wall_clock_ns());
  if (env.has_topology()) {
    agent->topology = env.topology();
    agent->has_topology = true;
  }
  // A Boot the agent could not carry out: it says so with an Error of no
  // run (ERROR_BAD_PLAN, ERROR_FACILITY_UNAVAILABLE) and stays up.
  if (env.has_error() && env.error().run_id().empty() && !agent->booting.empty()) {
    agent->boot_error = env.error().message();
    agent->booting.clear();
  }
  if (env.has_log() || env.has_sample() || env.has_iteration_result() || env.has_run_finished()) {
    const std::string* run_id = run_id_of(env);
    if (run_id && *run_id == agent->run_id) {
      agent->waiting = env.has_log() && env.log().waiting() ? env.log().message() : "";
    }
  }
}

LiveAgent* LiveAgents::find(const std::string& agent_id) {
  auto it = agents_.find(agent_id);
  return it == agents_.end() ? nullptr : &it->second;
}

LiveAgent* LiveAgents::running(const std::string& run_id, std::string* agent_id) {
  if (run_id.empty()) return nullptr;
  for (auto& [id, agent] : agents_) {
    if (agent.run_id != run_id) continue;
    if (agent_id) *agent_id = id;
    return &agent;
  }
  return nullptr;
}

}  // namespace schedrig::control
