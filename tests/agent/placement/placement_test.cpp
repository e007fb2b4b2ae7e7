// resolve_placement: all, cpus:LIST, and the errors.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "agent/placement/placement.h"
#include "common/cpulist.h"

namespace schedrig::placement {
namespace {

topology::Topology synthetic() {
  return topology::load_topology(
      {topology::Source::Kind::kSynthetic, "pack:2 numa:1 l3:2 core:4 pu:2"});
}

// Expects resolve_placement(policy) to throw and returns the message.
std::string error_of(const std::string& policy, const topology::Topology& t) {
  try {
    resolve_placement(policy, t);
  } catch (const PlacementError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no PlacementError for '" << policy << "'";
  return "";
}

void expect_names_supported_forms(const std::string& what) {
  EXPECT_NE(what.find("all"), std::string::npos) << what;
  EXPECT_NE(what.find("cpus:LIST"), std::string::npos) << what;
}

TEST(Placement, AllIsEveryAllowedPu) {
  EXPECT_EQ(format_cpulist(resolve_placement("all", synthetic())), "0-31");
}

TEST(Placement, AllFollowsAllowedNotOnline) {
  topology::Topology t = synthetic();
  t.allowed_cpus = {2, 3, 4, 5};
  EXPECT_EQ(resolve_placement("all", t), (std::vector<int>{2, 3, 4, 5}));
}

TEST(Placement, CpusListIsTakenAsIs) {
  const topology::Topology t = synthetic();
  EXPECT_EQ(resolve_placement("cpus:0-3", t), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(resolve_placement("cpus:8,0-1,31", t), (std::vector<int>{0, 1, 8, 31}));
}

TEST(Placement, CpusOutsideAllowedAreRefused) {
  const std::string what = error_of("cpus:999", synthetic());
  EXPECT_EQ(what.rfind("placement 'cpus:999': PU 999 is not in the allowed cpulist '0-31'", 0), 0u)
      << what;
  expect_names_supported_forms(what);
}

TEST(Placement, CpusAllowedButNotAllAreRefusedNamingTheRest) {
  topology::Topology t = synthetic();
  t.allowed_cpus = {0, 1};
  const std::string what = error_of("cpus:0-3", t);
  EXPECT_NE(what.find("PUs 2-3 are not in the allowed cpulist '0-1'"), std::string::npos) << what;
}

TEST(Placement, ABadOrEmptyCpulistIsRefused) {
  const topology::Topology t = synthetic();
  std::string what = error_of("cpus:3-1", t);
  EXPECT_EQ(what.rfind("placement 'cpus:3-1': ", 0), 0u) << what;
  expect_names_supported_forms(what);
  what = error_of("cpus:", t);
  EXPECT_NE(what.find("empty"), std::string::npos) << what;
}

TEST(Placement, AnUnknownPolicyIsRefused) {
  const std::string what = error_of("bogus", synthetic());
  EXPECT_EQ(what.rfind("placement 'bogus': unknown policy", 0), 0u) << what;
  expect_names_supported_forms(what);
}

TEST(Placement, ErrorsAreInvalidArgument) {
  EXPECT_THROW(resolve_placement("node:0", synthetic()), std::invalid_argument);
}

TEST(Placement, AllOnThisMachineIsItsAllowedCpus) {
  const topology::Topology t = topology::load_topology({});
  EXPECT_EQ(resolve_placement("all", t), t.allowed_cpus);
}

}  // namespace
}  // namespace schedrig::placement
