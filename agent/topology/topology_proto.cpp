// Topology <-> schedrig.v1.Topology, the message the agent sends after Hello.
#include <fmt/format.h>

#include "agent/topology/topology.h"
#include "common/cpulist.h"

namespace schedrig::topology {
namespace {

// The PUs of a cpulist field; `field` names it in the error.
std::vector<int> cpus_of(const std::string& text, const std::string& field) {
  try {
    return parse_cpulist(text);
  } catch (const std::invalid_argument& e) {
    throw TopologyError(fmt::format("agent topology: field '{}': {}", field, e.what()));
  }
}

// Every cpulist of a repeated field (package_cpus, clusters, core_cpus).
std::vector<std::vector<int>> cpu_lists_of(
    const google::protobuf::RepeatedPtrField<std::string>& lists, const std::string& field) {
  std::vector<std::vector<int>> out;
  for (int i = 0; i < lists.size(); ++i)
    out.push_back(cpus_of(lists.Get(i), fmt::format("{}[{}]", field, i)));
  return out;
}

}  // namespace

void topology_to_proto(const Topology& t, schedrig::v1::Topology* out) {
  out->Clear();
  out->set_arch(t.arch);
  out->set_packages(t.packages);
  for (const NumaNode& node : t.numa_nodes) {
    schedrig::v1::NumaNode* msg = out->add_numa_nodes();
    msg->set_os_index(node.os_index);
    msg->set_cpus(format_cpulist(node.cpus));
    msg->set_memory_bytes(node.memory_bytes);
  }
  for (const Llc& llc : t.llcs) {
    schedrig::v1::Llc* msg = out->add_llcs();
    msg->set_cpus(format_cpulist(llc.cpus));
    msg->set_level(llc.level);
    msg->set_size_bytes(llc.size_bytes);
    msg->set_shared_by(llc.shared_by);
  }
  out->set_cores(t.cores);
  out->set_pus(t.pus);
  out->set_smt(t.smt);
  out->set_compute_units(t.compute_units);
  out->set_online_cpus(format_cpulist(t.online_cpus));
  out->set_allowed_cpus(format_cpulist(t.allowed_cpus));
  for (const auto& cpus : t.package_cpus) out->add_package_cpus(format_cpulist(cpus));
  for (const auto& cpus : t.clusters) out->add_clusters(format_cpulist(cpus));
  for (const auto& cpus : t.core_cpus) out->add_core_cpus(format_cpulist(cpus));
  out->set_offline_pus(format_cpulist(t.offline_pus));
  out->set_disallowed_pus(format_cpulist(t.disallowed_pus));
  for (const auto& row : t.distances) {
    schedrig::v1::DistanceRow* msg = out->add_distances();
    for (unsigned d : row) msg->add_values(d);
  }
  out->set_distances_source(t.distances_source);
  for (const SchedDomainLevel& level : t.sched_domains) {
    schedrig::v1::SchedDomain* msg = out->add_sched_domains();
    msg->set_name(level.name);
    msg->set_span(level.span);
    msg->set_groups(level.groups);
    msg->set_domains(level.domains);
    msg->set_distance(level.distance);
    msg->set_min_span(level.min_span);
    msg->set_rule(level.rule);
  }
  for (const std::string& warning : t.warnings) out->add_warnings(warning);
}

Topology topology_from_proto(const schedrig::v1::Topology& msg) {
  Topology t;
  t.arch = msg.arch();
  t.packages = msg.packages();
  for (int i = 0; i < msg.numa_nodes_size(); ++i) {
    const auto& node = msg.numa_nodes(i);
    t.numa_nodes.push_back({node.os_index(),
                            cpus_of(node.cpus(), fmt::format("numa_nodes[{}].cpus", i)),
                            node.memory_bytes()});
  }
  for (int i = 0; i < msg.llcs_size(); ++i) {
    const auto& llc = msg.llcs(i);
    t.llcs.push_back({cpus_of(llc.cpus(), fmt::format("llcs[{}].cpus", i)), llc.level(),
                      llc.size_bytes(), llc.shared_by()});
  }
  t.cores = msg.cores();
  t.pus = msg.pus();
  t.smt = msg.smt();
  t.compute_units = msg.compute_units();
  t.online_cpus = cpus_of(msg.online_cpus(), "online_cpus");
  t.allowed_cpus = cpus_of(msg.allowed_cpus(), "allowed_cpus");
  t.package_cpus = cpu_lists_of(msg.package_cpus(), "package_cpus");
  t.clusters = cpu_lists_of(msg.clusters(), "clusters");
  t.core_cpus = cpu_lists_of(msg.core_cpus(), "core_cpus");
  t.offline_pus = cpus_of(msg.offline_pus(), "offline_pus");
  t.disallowed_pus = cpus_of(msg.disallowed_pus(), "disallowed_pus");
  for (const auto& row : msg.distances())
    t.distances.emplace_back(row.values().begin(), row.values().end());
  t.distances_source = msg.distances_source();
  for (const auto& level : msg.sched_domains()) {
    t.sched_domains.push_back({level.name(), level.span(), level.min_span(), level.groups(),
                               level.domains(), level.distance(), level.rule()});
  }
  t.warnings.assign(msg.warnings().begin(), msg.warnings().end());
  return t;
}

}  // namespace schedrig::topology
