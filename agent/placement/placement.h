// Placement policies: which PUs a workload runs on, as plans and
// `--placement P` spell it (docs/architecture.md "Plan files (YAML)", "Command lines"). The
// result depends only on the Topology, so a policy gives the same cpulist on
// the live machine and on its saved hwloc XML.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "agent/topology/topology.h"

namespace schedrig::placement {

// A policy that cannot be resolved on this topology. what() is one line
// naming the policy, the reason and the machine's limit, then the forms:
// "placement 'node:3': no NUMA node 3; this machine has 2 nodes (0-1);
// supported: all, cpulist:LIST (alias cpus:LIST), node:N, ...".
class PlacementError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A resolved placement. Every list holds sorted PU OS indexes.
struct Placement {
  std::vector<int> cpus;          // every PU the workload may use, non-empty
  std::vector<int> message_cpus;  // split:K only: the K message PUs
  std::vector<int> worker_cpus;   // split:K only: cpus minus message_cpus
  std::string policy;             // the policy as given ("split:2")
};

// Resolves `policy` on `t`. Every policy works on the allowed PUs
// (t.allowed_cpus: online, in this process's cgroup and affinity):
//  "all"           every allowed PU.
//  "cpulist:LIST"  the PUs of cpulist LIST ("0-3,8"); each must be allowed.
//                  "cpus:LIST" is an alias.
//  "node:N"        the allowed PUs of NUMA node N (kernel OS index, as in
//                  numactl); a memory-only node has none and is refused.
//  "package:N"     the allowed PUs of package N (hwloc logical index 0..P-1,
//                  lstopo's "Package L#N"; OS package ids can be 36, 8442).
//  "llc:N"         the allowed PUs of last-level cache N (Topology::llcs[N]).
//  "compact:K"     K PUs packed: fill one LLC, one PU per core before any SMT
//                  sibling, then the next LLC (LLCs in order).
//  "spread:K"      K PUs spread round-robin across the outermost of package
//                  and NUMA node (nodes first where a node holds several
//                  packages, packages first where a package holds several
//                  nodes or one each), then the other, then LLCs, then
//                  cores, SMT siblings last (as hwloc_distrib spreads):
//                  spread:4 on two packages puts two PUs in each, on
//                  different LLCs; on 16 packages in 4 nodes one per node.
//  "split:K"       K message PUs, spread as spread:K (one per NUMA node, then
//                  per LLC), and every other allowed PU for workers
//                  (schbench -M auto, made NUMA-aware); K < allowed PUs.
// N and K are decimal integers; K >= 1. Throws PlacementError for an unknown
// policy, a malformed or out-of-range number, a PU outside the allowed set,
// K larger than the allowed PUs, or an empty result.
Placement resolve_placement(const std::string& policy, const topology::Topology& t);

// One line per policy with an example, for --help texts.
const char* policy_help();

}  // namespace schedrig::placement
