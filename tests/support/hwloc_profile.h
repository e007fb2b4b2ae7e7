// Test support: a machine from the repo's hwloc-profiles/ (topology XML of
// real lab machines), loaded through the XML source. Header only: a test
// that includes it links schedrig_topology.
#pragma once

#include <filesystem>
#include <string>

#include "agent/topology/topology.h"

namespace schedrig::testing {

// SOURCE_DIR/hwloc-profiles.
inline std::filesystem::path hwloc_profiles_dir() {
  return std::filesystem::path(SCHEDRIG_SOURCE_DIR) / "hwloc-profiles";
}

// The topology of profile `name` ("intel-i7-4770-1s": hwloc-profiles/NAME.xml).
// Throws topology::TopologyError when it cannot be loaded.
inline topology::Topology hwloc_profile(const std::string& name) {
  return topology::load_topology(
      {topology::Source::Kind::kXml, (hwloc_profiles_dir() / (name + ".xml")).string()});
}

}  // namespace schedrig::testing
