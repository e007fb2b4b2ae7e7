// Placement policies: which PUs a workload runs on, as plans and
// `--placement P` spell it (DESIGN.md "Plan files", "Command lines").
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "agent/topology/topology.h"

namespace schedrig::placement {

// A policy that cannot be resolved on this topology. what() is one line:
// "placement 'POLICY': REASON; supported: all, cpus:LIST (...)".
class PlacementError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The sorted PU OS indexes `policy` names on `t`:
//  "all"       every allowed PU (t.allowed_cpus);
//  "cpus:LIST" the PUs of cpulist LIST ("0-3,8"), which must be non-empty and
//              a subset of t.allowed_cpus.
// Throws PlacementError for an unknown policy, a bad cpulist, a PU outside
// allowed_cpus, or an empty result.
std::vector<int> resolve_placement(const std::string& policy, const topology::Topology& t);

}  // namespace schedrig::placement
