// Topology -> JSON (the `topology --json` output), cpulists as strings.
#include "agent/topology/topology.h"
#include "common/cpulist.h"

namespace schedrig::topology {
namespace {

nlohmann::json cpulists(const std::vector<std::vector<int>>& sets) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& cpus : sets) out.push_back(format_cpulist(cpus));
  return out;
}

}  // namespace

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
  nlohmann::json distances = nlohmann::json::array();
  for (const auto& row : t.distances) distances.push_back(row);
  nlohmann::json domains = nlohmann::json::array();
  for (const SchedDomainLevel& level : t.sched_domains) {
    domains.push_back({{"name", level.name},
                       {"span", level.span},
                       {"min_span", level.min_span},
                       {"groups", level.groups},
                       {"domains", level.domains},
                       {"distance", level.distance},
                       {"rule", level.rule}});
  }
  return {{"arch", t.arch},
          {"packages", t.packages},
          {"package_cpus", cpulists(t.package_cpus)},
          {"numa_nodes", std::move(numa_nodes)},
          {"llcs", std::move(llcs)},
          {"clusters", cpulists(t.clusters)},
          {"cores", t.cores},
          {"core_cpus", cpulists(t.core_cpus)},
          {"pus", t.pus},
          {"smt", t.smt},
          {"compute_units", t.compute_units},
          {"online_cpus", format_cpulist(t.online_cpus)},
          {"allowed_cpus", format_cpulist(t.allowed_cpus)},
          {"offline_pus", format_cpulist(t.offline_pus)},
          {"disallowed_pus", format_cpulist(t.disallowed_pus)},
          {"distances", std::move(distances)},
          {"distances_source", t.distances_source},
          {"sched_domains", std::move(domains)},
          {"warnings", t.warnings}};
}

}  // namespace schedrig::topology
