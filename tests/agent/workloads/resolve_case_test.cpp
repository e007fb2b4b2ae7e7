// resolve_case: a plan case against a topology, and which key an error is about.
#include <string>

#include <gtest/gtest.h>

#include "agent/workloads/resolve_case.h"
#include "tests/support/hwloc_profile.h"

namespace schedrig::workloads {
namespace {

// One package, 4 cores with 2 PUs each (PUs 0-7), one NUMA node.
topology::Topology i7() { return testing::hwloc_profile("intel-i7-4770-1s"); }

schedrig::v1::Case make_case(const std::string& workload, const Params& params,
                             const std::string& placement = "all") {
  schedrig::v1::Case c;
  c.set_workload(workload);
  for (const auto& [k, v] : params) (*c.mutable_params())[k] = v;
  c.set_placement(placement);
  return c;
}

// The CaseError resolve_case throws for `c` on the i7.
CaseError error_of(const schedrig::v1::Case& c) {
  try {
    resolve_case(c, i7());
  } catch (const CaseError& e) {
    return e;
  }
  ADD_FAILURE() << "no CaseError for workload " << c.workload();
  return CaseError(CasePart::kWorkload, "", "");
}

TEST(ResolveCase, FillsDefaultsAndResolvesThePlacement) {
  const ResolvedCase r = resolve_case(make_case("fork", {{"fork_max", "4"}}, "compact:3"), i7());
  EXPECT_STREQ(r.workload->name, "fork");
  EXPECT_EQ(r.params.at("fork_max"), "4");
  EXPECT_EQ(r.params.at("workers"), "auto");
  EXPECT_EQ(r.placement.cpus.size(), 3u);
}

TEST(ResolveCase, MembindKeyIsTheMembindParameter) {
  schedrig::v1::Case c = make_case("kv", {});
  c.set_membind("interleave");
  EXPECT_EQ(resolve_case(c, i7()).params.at("membind"), "interleave");
}

TEST(ResolveCase, UnknownWorkload) {
  const CaseError e = error_of(make_case("forkk", {}));
  EXPECT_EQ(e.part(), CasePart::kWorkload);
  EXPECT_EQ(e.param(), "");
  EXPECT_STREQ(e.what(),
               "workload 'forkk' is not known (known: fork, wakeup, kv, schbench, stress-ng, "
               "hackbench, perf-bench-sched)");
}

TEST(ResolveCase, UnknownParameterNamesIt) {
  const CaseError e = error_of(make_case("fork", {{"forkmax", "3"}}));
  EXPECT_EQ(e.part(), CasePart::kParams);
  EXPECT_EQ(e.param(), "forkmax");
}

TEST(ResolveCase, OutOfRangeParameterNamesIt) {
  const CaseError e = error_of(make_case("fork", {{"fork_max", "0"}}));
  EXPECT_EQ(e.part(), CasePart::kParams);
  EXPECT_EQ(e.param(), "fork_max");
  EXPECT_STREQ(e.what(), "fork: parameter 'fork_max' = '0': must be an integer in [1, 16000]");
}

TEST(ResolveCase, ParameterLimitsOfTwoNameNone) {
  const CaseError e =
      error_of(make_case("wakeup", {{"message_threads", "1024"}, {"workers_per_message", "64"}}));
  EXPECT_EQ(e.part(), CasePart::kParams);
  EXPECT_EQ(e.param(), "");
}

TEST(ResolveCase, KvShardsAboveKeysNamesShards) {
  const CaseError e = error_of(make_case("kv", {{"keys", "4"}, {"shards", "8"}}));
  EXPECT_EQ(e.param(), "shards");
}

TEST(ResolveCase, UnresolvablePlacement) {
  const CaseError e = error_of(make_case("fork", {}, "node:1"));
  EXPECT_EQ(e.part(), CasePart::kPlacement);
  EXPECT_EQ(std::string(e.what()).rfind("placement 'node:1': no NUMA node 1", 0), 0u) << e.what();
}

}  // namespace
}  // namespace schedrig::workloads
