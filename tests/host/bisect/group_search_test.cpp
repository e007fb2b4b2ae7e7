// group_search (host/bisect/group_search.h) on a simulated kernel: 40
// features, one (NI_RANDOM, on as found) halves the rate, one pair matters
// only together; every probe is a sequential A/B run on noisy iterations.
#include "host/bisect/group_search.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "common/stats/normal_draws.h"

namespace schedrig::bisect {
namespace {

constexpr int kFeatures = 40;
constexpr int kNiRandom = 7;
constexpr int kPairA = 12, kPairB = 31;  // in different halves of every split

std::vector<Unit> features() {
  std::vector<Unit> units;
  for (int i = 0; i < kFeatures; ++i) {
    const std::string name = i == kNiRandom ? "NI_RANDOM" : "FEATURE_" + std::to_string(i);
    units.push_back({"NO_" + name, "sched_features:" + name});
  }
  return units;
}

// The simulated kernel's rate with `flipped` features flipped.
double rate(const std::vector<int>& flipped) {
  const auto has = [&](int u) {
    return std::find(flipped.begin(), flipped.end(), u) != flipped.end();
  };
  double r = 1000;
  if (has(kNiRandom)) r *= 2;                // NO_NI_RANDOM restores the rate
  if (has(kPairA) && has(kPairB)) r *= 1.3;  // only together
  return r;
}

struct Sim {
  stats::NormalDraws draws{42};
  double cv = 0.02;
  Probe probe() {
    return [this](const std::vector<int>& units) {
      const double flipped = rate(units);
      return stats::run_sequential(
          [&] {
            return std::pair{rate({}) * (1 + cv * draws.next()), flipped * (1 + cv * draws.next())};
          },
          {});
    };
  }
};

std::set<std::vector<int>> found_sets(const SearchResult& r) {
  std::set<std::vector<int>> out;
  for (auto f : r.findings) {
    std::sort(f.units.begin(), f.units.end());
    out.insert(f.units);
  }
  return out;
}

TEST(GroupSearch, FindsTheFeatureAndThePairAndNothingElseInFewerProbesThanOneByOne) {
  Sim sim;
  const SearchResult r = group_search(features(), kFeatures, sim.probe());
  EXPECT_EQ(found_sets(r), (std::set<std::vector<int>>{{kNiRandom}, {kPairA, kPairB}}));
  for (const auto& f : r.findings) {
    EXPECT_EQ(f.interaction, f.units.size() == 2);
    EXPECT_EQ(f.look.settled, stats::Settled::kEffect);
    EXPECT_NEAR(f.look.change_pct, f.units.size() == 1 ? 100 : 30, 5);
  }
  EXPECT_EQ(r.cleared.size(), kFeatures - 3u);
  for (const auto& f : r.findings) EXPECT_EQ(f.confirmation.settled, stats::Settled::kEffect);
  // The documented bound (group_search.h) for n = g = 40: 1 + 2 log2 40 +
  // (4 log2 40 + 1) + 2 residual passes + 2 confirmations, about 38;
  // testing each alone takes 40 probes and can never see the pair.
  EXPECT_LE(r.probes, 38) << r.probes;
}

// Groups of 8 keep the pair apart; the residual pass (all at once) brings
// it together. Group size 1 is the one-at-a-time search: 40 probes before
// the residual pass, and false alarms a confirmation must weed out.
TEST(GroupSearch, SmallerGroupsAndOneAtATimeFindThemThroughTheResidualPass) {
  Sim sim;
  const auto want = std::set<std::vector<int>>{{kNiRandom}, {kPairA, kPairB}};
  const SearchResult eights = group_search(features(), 8, sim.probe());
  EXPECT_EQ(found_sets(eights), want);
  const SearchResult alone = group_search(features(), 1, sim.probe());
  EXPECT_EQ(found_sets(alone), want);
  EXPECT_GT(alone.probes, eights.probes);
}

TEST(GroupSearch, NothingToFindCostsOneProbePerGroup) {
  Sim sim;
  const SearchResult r = group_search(features(), 8, [&](const std::vector<int>& units) {
    std::vector<int> harmless;
    for (const int u : units)
      if (u != kNiRandom && u != kPairA && u != kPairB) harmless.push_back(u);
    return sim.probe()(harmless);
  });
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(r.probes, 5);
}

TEST(InitialGroups, UnitsThatSetTheSameKnobNeverShareAGroup) {
  const std::vector<Unit> units = {
      {"kernel.numa_balancing=0", "kernel.numa_balancing"},
      {"kernel.numa_balancing=2", "kernel.numa_balancing"},
      {"kernel.sched_autogroup_enabled=0", "kernel.sched_autogroup_enabled"},
      {"kernel.numa_balancing=3", "kernel.numa_balancing"}};
  EXPECT_EQ(initial_groups(units, 8), (std::vector<std::vector<int>>{{0, 2}, {1}, {3}}));
  EXPECT_EQ(initial_groups(units, 1), (std::vector<std::vector<int>>{{0}, {1}, {2}, {3}}));
  EXPECT_THROW(initial_groups(units, 0), std::invalid_argument);
}

}  // namespace
}  // namespace schedrig::bisect
