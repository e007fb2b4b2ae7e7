// Topology -> JSON (the `topology --json` output), cpulists as strings.
#include "agent/topology/topology.h"
#include "common/cpulist.h"

namespace schedrig::topology {

nlohmann::json topology_to_json(const Topology& t) {
  nlohmann::json numa_nodes = nlohmann::json::array();
  for (const NumaNode& node : t.numa_nodes) {
    numa_nodes.push_back({{"os_index", node.os_index},
                          {"cpus", format_cpulist(node.cpus)},
                          {"memory_bytes", node.memory_bytes}});
  }
  nlohmann::json llcs = nlohmann::json::array();
  for (const Llc& llc : t.llcs) {
    llcs.push_back({{"cpus", format_cpulist(llc.cpus)},
                    {"level", llc.level},
                    {"size_bytes", llc.size_bytes},
                    {"shared_by", llc.shared_by}});
  }
  return {{"packages", t.packages},
          {"numa_nodes", std::move(numa_nodes)},
          {"llcs", std::move(llcs)},
          {"cores", t.cores},
          {"pus", t.pus},
          {"smt", t.smt},
          {"online_cpus", format_cpulist(t.online_cpus)},
          {"allowed_cpus", format_cpulist(t.allowed_cpus)}};
}

}  // namespace schedrig::topology
