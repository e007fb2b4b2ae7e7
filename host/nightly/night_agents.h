// Which agents a night runs on (docs/nightly.md "The lab file"): the lab
// file's ids and selectors resolved against the server's agent list
// (GET /api/v1/agents), each checked to list every kernel of the night.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/nightly/lab_file.h"

namespace schedrig::nightly {

// A kernel an agent can boot, as its Hello lists it.
struct AgentKernel {
  std::string release, hook;
};

// One agent of the night, as the server knows it now.
struct NightAgent {
  std::string agent_id, hostname, arch, kernel_release, boot_id;
  bool connected = false;
  std::map<std::string, AgentKernel> kernels;  // by name
};

// The agents `lab` names, from `agents` (the JSON of GET /api/v1/agents), by
// agent_id, each once. Throws CliError(kUsage) naming the lab file and line:
// an id the server does not know, a selector no connected agent matches, an
// agent that does not list a kernel of the night ("agent box1 does not list
// kernel 'rhel-10.2' (its config lists: rhel-10.1)"); CliError(kUnreachable)
// for an agent named by id that is not connected, or an answer that is not
// an agent list.
std::vector<NightAgent> resolve_night_agents(const LabFile& lab, const nlohmann::json& agents);

}  // namespace schedrig::nightly
