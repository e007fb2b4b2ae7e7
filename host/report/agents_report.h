// `schedrig agents`: the lab boxes the store knows, as a table or JSON.
#pragma once

#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/store/records.h"

namespace schedrig::report {

// A header, then one line per agent: AGENT, HOSTNAME, KERNEL, PACKAGES,
// NODES, LLCS, CORES, PUS (online topology PUs; "-" until a Topology
// arrived), SMT (yes/no/-), ALLOWED (PUs the agent may use), RUNS,
// LAST SEEN (UTC ISO).
void print_agents_table(const std::vector<store::AgentRecord>& agents, std::ostream& out);

// {"agents":[{"agent_id","hostname","kernel_release","agent_version",
//   "instance_id","boot_id","allowed_pus","runs","last_seen_ns",
//   "topology":{"packages","numa_nodes","llcs","cores","pus","smt",
//               "online_cpus","offline_pus"} or null}]}
// Counts are integers, smt a bool, cpulists strings.
nlohmann::json agents_json(const std::vector<store::AgentRecord>& agents);

}  // namespace schedrig::report
