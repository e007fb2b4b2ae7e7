// The machine as hwloc (and, live, libnuma and sysfs) map it: packages, NUMA
// nodes with their distance matrix, last-level caches (LLCs), clusters,
// cores with their SMT siblings, PUs, offline and disallowed PUs, and the
// scheduler-domain levels the kernel would build from all that (docs/architecture.md
// "Shape": agent/topology). Every CPU number here is a PU OS index, the
// number the kernel uses in cpulists and sched_setaffinity(2).
#pragma once

#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/procfs/root.h"
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
// from libnuma (numa_node_to_cpus). From XML/synthetic each PU goes to the
// NUMA node with the smallest hwloc cpuset holding it, because hwloc gives a
// CPU-less node the cpuset of the CPUs near it. Nodes whose cpusets are the
// same ("twins") are told apart by what marks a node as memory (an hwloc
// subtype such as MCDRAM, HBM, NVM or GPUMemory, or a DAXDevice info), then
// by which twin is nearer the other nodes (a memory-only node sits behind
// its CPUs' node), then by node numbering (Linux numbers nodes with CPUs
// first); twins nothing tells apart are an ambiguous export: each
// keeps every CPU of the set, none is called memory-only, and
// Topology::warnings names them (docs/architecture.md "Topology").
struct NumaNode {
  unsigned os_index = 0;           // kernel node number (numactl's "node N")
  std::vector<int> cpus;           // sorted PU OS indexes; empty = memory only
  std::uint64_t memory_bytes = 0;  // local memory, bytes (hwloc local_memory)
};

// A last-level cache: for each PU, the outermost data or unified CPU cache
// above it (L3 on most x86 boxes, a per-core L2 on Ampere Altra, where no CPU
// cache is shared: then shared_by is 1). Memory-side caches are not CPU
// caches and never count: hwloc MemCache objects (Altra's SLC, Optane's DRAM
// cache) and caches of subtype "MemorySideCache" (how hwloc 2.9 reports
// KNL's MCDRAM cache: an L3Cache).
struct Llc {
  std::vector<int> cpus;         // sorted PU OS indexes sharing the cache
  unsigned level = 0;            // 3 for an L3
  std::uint64_t size_bytes = 0;  // bytes; 0 when hwloc does not know it
  unsigned shared_by = 0;        // cores sharing it (1 = private per core)
};

// One scheduler-domain level as kernel/sched/topology.c would build it for
// the online PUs, with the masks of the machine's architecture
// (Topology::arch; docs/architecture.md "Topology"):
//  x86 (arch/x86/kernel/smpboot.c): SMT (thread siblings, an AMD compute
//      unit's cores included), CLS (CPUs sharing an L2, Linux 5.16+), MC
//      (CPUs sharing the LLC), each bounded by the node; PKG (the node) unless
//      a package holds several nodes, when the level is sched_init_numa's NODE.
//  every other architecture, and unknown (drivers/base/arch_topology.c): SMT,
//      CLS (sysfs cluster_cpus), MC (the smallest of node, package and LLC),
//      PKG (the node: cpu_cpu_mask is cpumask_of_node).
// Then one NUMA level per distinct node distance above the local one
// (CPU-less nodes do not count). A level whose span equals the level below it
// is dropped, as sd_parent_degenerate() does, and so is a bottom level of one
// PU (sd_degenerate()); the build stops at the first level spanning every PU.
// A PU with no NUMA node (its node offline in an export) keeps the levels of
// its own masks (SMT, CLS, MC over its LLC) and gets no node level; a PU in
// an ambiguous export's twin nodes gets no node level but keeps the distance
// levels. Domains are built over every online PU, as the kernel builds them,
// and described for the allowed PUs: only domains holding an allowed PU
// count. Where levels differ from PU to PU (offline siblings, asymmetric
// NUMA), `span` and `groups` describe the widest domain of the level and
// `min_span` the narrowest.
struct SchedDomainLevel {
  std::string name;       // "SMT", "CLS", "MC", "PKG", "NODE" or "NUMA"
  unsigned span = 0;      // PUs in one domain of this level (the widest)
  unsigned min_span = 0;  // PUs in the narrowest domain of this level
  unsigned groups = 0;    // sched groups in it: the child domains it balances between
  unsigned domains = 0;   // distinct domains of this level holding an allowed PU
  unsigned distance = 0;  // NUMA levels: the node distance bounding it; else 0
  // The kernel rule the level's mask and name follow, one phrase ("x86 since
  // Linux 5.16: CPUs sharing an L2 (cpu_l2c_shared_mask)"); "" when the
  // architecture is unknown.
  std::string rule;
};

// The whole machine. Lists are sorted: numa_nodes by os_index; llcs,
// package_cpus, clusters and core_cpus in hwloc's logical order (llcs[n] is
// lstopo's "L3 L#n" where one cache level is last for every PU). PUs without
// any data cache belong to no Llc.
struct Topology {
  // The architecture as uname(2) names it ("x86_64", "aarch64", "ppc64le"):
  // hwloc's "Architecture" info of the machine; "" when the source does not
  // say (synthetic descriptions). It picks the kernel's domain rules.
  std::string arch;
  unsigned packages = 0;             // hwloc Package objects (0 if it finds none)
  std::vector<NumaNode> numa_nodes;  // always at least one (hwloc adds one)
  std::vector<Llc> llcs;
  unsigned cores = 0;  // hwloc Core objects; = pus if there are none
  unsigned pus = 0;    // online PUs (logical CPUs)
  bool smt = false;    // some core_cpus entry has more than one online PU
  // True when core_cpus pairs hwloc Cores: an AMD Bulldozer-family (family
  // 15h) compute unit, whose cores share an L1i and an L2 and which x86's
  // match_smt makes SMT siblings by cu_id (sysfs thread_siblings_list 0-1).
  bool compute_units = false;
  std::vector<int> online_cpus;  // every PU in the topology, sorted
  // The PUs this process may run on. Live: hwloc's allowed cpuset (cgroup
  // cpuset) intersected with sched_getaffinity(2) of the calling thread (the
  // mask new threads and children inherit).
  // XML: the export's allowed_cpuset (what `lstopo --of xml` run inside a
  // cgroup records), online_cpus when it has none. Synthetic: online_cpus.
  std::vector<int> allowed_cpus;

  // The online PUs of each Package object (`packages` entries; Package L#n).
  std::vector<std::vector<int>> package_cpus;
  // The online PUs of each cluster (the kernel's CLS mask). x86: each L2
  // cache shared by 2+ cores and strictly inside its LLC (cpu_l2c_shared_mask,
  // Linux 5.16+: Alder Lake E-core quads, Dunnington's L2 pairs); hwloc
  // merges that Cluster group into the L2, so the L2 is what is left.
  // Elsewhere: hwloc Group objects of subtype "Cluster" (Linux sysfs
  // cluster_cpus, e.g. Kunpeng 920's 4-core clusters), or groups without a
  // subtype holding 2+ cores strictly inside one NUMA node and one LLC (how a
  // synthetic description spells them). Empty when none.
  std::vector<std::vector<int>> clusters;
  // The online PUs of each core as the kernel counts cores: its SMT siblings
  // (sysfs thread_siblings_list; one PU without SMT), in hwloc logical order.
  // One entry per hwloc Core, except for compute units (see above), where
  // one entry holds the unit's cores.
  std::vector<std::vector<int>> core_cpus;
  // PUs hwloc knows but that are offline: complete cpuset minus the online one
  // (the kernel's /sys/devices/system/cpu/offline: possible but not online).
  std::vector<int> offline_pus;
  // Online PUs this process may not use (cgroup cpuset, affinity): online
  // minus allowed. XML: outside the export's allowed_cpuset. Never offline.
  std::vector<int> disallowed_pus;
  // NUMA node distances (ACPI SLIT, relative latency, 10 = local), one row per
  // numa_nodes entry in the same order: distances[i][j] is from
  // numa_nodes[i] to numa_nodes[j]. Empty when no source has them.
  std::vector<std::vector<unsigned>> distances;
  // Where `distances` came from: "hwloc" (the topology's NUMALatency matrix),
  // "sysfs" (ROOT/sys/devices/system/node/nodeN/distance, live only),
  // "libnuma" (numa_distance, live only), or "" when unknown.
  std::string distances_source;
  // Scheduler-domain levels, bottom up; see SchedDomainLevel and
  // derive_sched_domains.
  std::vector<SchedDomainLevel> sched_domains;
  // What in the source cannot be trusted, one line each, e.g. "ambiguous
  // export: NUMA nodes 0 and 1 both list cpus 0-13 ...". Empty when none.
  std::vector<std::string> warnings;
};

// True when `arch` (Topology::arch) is an x86 machine ("x86_64", "i686",
// "amd64", ...): its domains follow arch/x86/kernel/smpboot.c.
bool is_x86(const std::string& arch);

// A topology that cannot be loaded. what() is one line naming the source:
//  "FILE: cannot read it: REASON" for an XML path that cannot be opened, is
//  not a regular file or is over 256 MiB, "FILE: hwloc cannot load it:
//  REASON" for XML hwloc refuses, "synthetic 'DESC': REASON" for a synthetic
//  description, "live machine: hwloc cannot load it: REASON". Text from the
//  source is escaped (printable()).
class TopologyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads the topology from `source` with hwloc
// (hwloc doc "Changing the Source of Topology Discovery"):
//  - live: native discovery with HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED, so
//    online PUs outside this process's cgroup are kept and allowed_cpus can
//    differ from online_cpus. Offline PUs are never part of it. Where hwloc
//    has no NUMA distance matrix (it skips a single node), the distances come
//    from `root`/sys/devices/system/node/nodeN/distance, then from libnuma
//    numa_distance(3).
//  - XML: the file read once (a regular file of at most 256 MiB: never a
//    FIFO or device to block on) and handed to hwloc_topology_set_xmlbuffer,
//    also with INCLUDE_DISALLOWED ("if the
//    topology is exported to XML and reimported later, this flag should be set
//    again"); IS_THISSYSTEM stays off. hwloc 2.x reads XML versions 1 and 2.
//  - synthetic: hwloc_topology_set_synthetic, IS_THISSYSTEM off.
// The live-only fallbacks (libnuma node cpus, affinity, sysfs and libnuma
// distances) never apply to XML or synthetic input.
// Throws TopologyError (see above; REASON carries the errno text, and for an
// XML whose version this hwloc cannot read, the version).
Topology load_topology(const Source& source, const procfs::Root& root = procfs::Root::live());

// The scheduler-domain levels the kernel would build for `t` (see
// SchedDomainLevel), from arch, online_cpus, allowed_cpus (all online when
// empty), core_cpus, clusters, llcs, package_cpus, numa_nodes and distances. Without distances it
// assumes Linux's defaults when firmware has no SLIT: 10 local, 20 remote (LOCAL_DISTANCE,
// REMOTE_DISTANCE). load_topology fills Topology::sched_domains with it; exposed for hand-made
// topologies.
std::vector<SchedDomainLevel> derive_sched_domains(const Topology& t);

// Maps indexed by PU OS index, sized to the highest online PU + 1 (empty for
// no PUs), -1 for a PU that is offline or has none; the shapes
// workloads::RunContext takes.
//  pu_to_llc:  the index into t.llcs of the PU's last-level cache.
//  pu_to_node: the OS index of the PU's NUMA node (t.numa_nodes[i].os_index).
std::vector<int> pu_to_llc(const Topology& t);
std::vector<int> pu_to_node(const Topology& t);

// The topology as JSON: {"arch", "packages", "package_cpus":[cpulist],
// "numa_nodes":[{"os_index","cpus","memory_bytes"}],
// "llcs":[{"cpus","level","size_bytes","shared_by"}], "clusters":[cpulist],
// "cores", "core_cpus":[cpulist], "pus", "smt", "compute_units", "online_cpus",
// "allowed_cpus", "offline_pus", "disallowed_pus",
// "distances":[[int]] (row per node in os_index order; [] when unknown),
// "distances_source", "sched_domains":[{"name","span","min_span","groups",
// "domains","distance","rule"}], "warnings":[string]}. Every cpus-like value is a cpulist string
// ("0-3,8"; "" for none); `level` is an integer.
nlohmann::json topology_to_json(const Topology& t);

// Fills the wire message schedrig.v1.Topology (proto/schedrig/v1/topology.proto),
// replacing whatever `out` held. cpus-like fields are cpulist strings.
void topology_to_proto(const Topology& t, schedrig::v1::Topology* out);

// The inverse of topology_to_proto: a Topology from the message an agent
// sent, so the host can resolve placements on the agent's machine
// (host/plan_check). topology_from_proto(topology_to_proto(t)) equals t.
// Throws TopologyError "agent topology: field 'numa_nodes[1].cpus': ..." for
// a malformed cpulist.
Topology topology_from_proto(const schedrig::v1::Topology& msg);

// The human view: a summary line (counts, SMT, online, allowed, offline and
// disallowed cpulists), one line per package, NUMA node (cpulist, memory), the
// online PUs in no node, and
// LLC (level, size, cores sharing it, cpulist; private per-core caches on
// one line), the clusters, the SMT siblings of the first core, the distance
// matrix, the scheduler-domain levels with the rule each follows, and one
// "warning:" line per Topology::warnings entry.
void print_topology(const Topology& t, std::ostream& out);

}  // namespace schedrig::topology
