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
}

}  // namespace schedrig::topology
