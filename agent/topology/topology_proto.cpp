// Topology -> schedrig.v1.Topology, the message the agent sends after Hello.
#include "agent/topology/topology.h"
#include "common/cpulist.h"

namespace schedrig::topology {

void topology_to_proto(const Topology& t, schedrig::v1::Topology* out) {
  out->Clear();
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
  }
}

}  // namespace schedrig::topology
