// The machine as hwloc (and, live, libnuma) map it: packages, NUMA nodes,
// last-level caches (LLCs), cores, PUs, and the online and allowed cpulists
// (DESIGN.md "Shape": agent/topology). Every CPU number here is a PU OS index,
// the number the kernel uses in cpulists and sched_setaffinity(2).
#pragma once

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedrig/v1/topology.pb.h"

namespace schedrig::topology {

// Where load_topology reads the machine from.
//  kLive:      this machine (`arg` unused).
//  kXml:       an hwloc XML file (`lstopo --of xml`), `arg` is its path.
//  kSynthetic: an hwloc synthetic description, `arg` such as
//              "pack:2 numa:1 l3:2 core:4 pu:2" (hwloc doc "Synthetic topologies").
struct Source {
  enum class Kind { kLive, kXml, kSynthetic };
  Kind kind = Kind::kLive;
  std::string arg;
};

// A NUMA node. `cpus` are the PUs Linux assigns to the node, sorted; empty for
// a memory-only node (HBM in flat mode, CXL, Optane as kmem). Live, they come
// from libnuma (numa_node_to_cpus); from XML/synthetic each PU goes to the
// NUMA node with the smallest hwloc cpuset holding it (lowest OS index on a
// tie), because hwloc gives a CPU-less node the cpuset of the CPUs near it.
struct NumaNode {
  unsigned os_index = 0;           // kernel node number (numactl's "node N")
  std::vector<int> cpus;           // sorted PU OS indexes
  std::uint64_t memory_bytes = 0;  // local memory, bytes (hwloc local_memory)
};

// A last-level cache: for each PU, the outermost data or unified CPU cache
// above it (L3 on most x86 boxes, a per-core L2 on Ampere Altra). hwloc
// MemCache objects (memory-side caches) are not CPU caches and never count.
struct Llc {
  std::vector<int> cpus;         // sorted PU OS indexes sharing the cache
  unsigned level = 0;            // 3 for an L3
  std::uint64_t size_bytes = 0;  // bytes; 0 when hwloc does not know it
  unsigned shared_by = 0;        // cores sharing it (1 = private per core)
};

// The whole machine. Lists are sorted: numa_nodes by os_index; llcs in hwloc's
// logical order (llcs[n] is lstopo's "L3 L#n" where one cache level is last
// for every PU). PUs without any data cache belong to no Llc.
struct Topology {
  unsigned packages = 0;             // hwloc Package objects (0 if it finds none)
  std::vector<NumaNode> numa_nodes;  // always at least one (hwloc adds one)
  std::vector<Llc> llcs;
  unsigned cores = 0;            // hwloc Core objects; = pus if there are none
  unsigned pus = 0;              // online PUs (logical CPUs)
  bool smt = false;              // some core has more than one PU
  std::vector<int> online_cpus;  // every PU in the topology, sorted
  // The PUs this process may run on. Live: hwloc's allowed cpuset (cgroup
  // cpuset) intersected with sched_getaffinity(2) of the calling thread (the
  // mask new threads and children inherit).
  // XML/synthetic: equal to online_cpus (nothing restricts a recorded machine).
  std::vector<int> allowed_cpus;
};

// A topology that cannot be loaded. what() is one line naming the source:
//  "FILE: hwloc cannot load it: REASON" for XML, "synthetic 'DESC': REASON"
//  for a synthetic description, "live machine: hwloc cannot load it: REASON".
class TopologyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads the topology from `source` with hwloc
// (hwloc doc "Changing the Source of Topology Discovery"):
//  - live: native discovery with HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED, so
//    online PUs outside this process's cgroup are kept and allowed_cpus can
//    differ from online_cpus. Offline PUs are never part of it.
//  - XML: hwloc_topology_set_xml, also with INCLUDE_DISALLOWED ("if the
//    topology is exported to XML and reimported later, this flag should be set
//    again"); IS_THISSYSTEM stays off. hwloc 2.x reads XML versions 1 and 2.
//  - synthetic: hwloc_topology_set_synthetic, IS_THISSYSTEM off.
// Throws TopologyError (see above; REASON carries the errno text, and for an
// XML whose version this hwloc cannot read, the version).
Topology load_topology(const Source& source);

// The topology as JSON: {"packages", "numa_nodes":[{"os_index","cpus",
// "memory_bytes"}], "llcs":[{"cpus","level","size_bytes","shared_by"}],
// "cores", "pus", "smt", "online_cpus", "allowed_cpus"}. Every cpus-like
// value is a cpulist string ("0-3,8"; "" for none).
nlohmann::json topology_to_json(const Topology& t);

// Fills the wire message schedrig.v1.Topology (proto/schedrig/v1/topology.proto),
// replacing whatever `out` held. cpus-like fields are cpulist strings.
void topology_to_proto(const Topology& t, schedrig::v1::Topology* out);

// The human view: a summary line (counts, SMT, online and allowed cpulists),
// then one line per NUMA node (cpulist, memory) and one per LLC (level, size,
// cores sharing it, cpulist).
void print_topology(const Topology& t, std::ostream& out);

}  // namespace schedrig::topology
