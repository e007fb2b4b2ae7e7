// The sequential rule (common/stats/sequential.h): its boundary, its looks
// on hand-made pairs, and its error rates on simulated normal pairs.
#include "common/stats/sequential.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "common/stats/normal_draws.h"

namespace schedrig::stats {
namespace {

TEST(SequentialNominalP, OneLookIsThePlainLevelAndMoreLooksNeedLessButNotBonferroni) {
  const double one_look = sequential_nominal_p({.min_pairs = 10, .max_pairs = 10});
  EXPECT_NEAR(one_look, 0.05, 0.005);  // a single look: the ordinary 95% interval
  const SequentialRule rule;           // looks at 5..20 pairs
  const double p = sequential_nominal_p(rule);
  EXPECT_LT(p, 0.05);
  EXPECT_GT(p, 0.05 / 16);  // the looks are correlated: far from Bonferroni's alpha/16
  EXPECT_EQ(sequential_nominal_p(rule), p);  // seeded and cached: the same every time
}

TEST(SequentialLook, AClearEffectStopsAtTheFirstLook) {
  const std::vector<double> as_found = {100, 101, 99, 100.5, 99.5};
  const std::vector<double> flipped = {331, 330, 332, 329, 331.5};  // +231%
  const SequentialLook look = sequential_look(as_found, flipped, {});
  EXPECT_EQ(look.settled, Settled::kEffect);
  EXPECT_EQ(look.pairs, 5);
  EXPECT_NEAR(look.change_pct, 231, 1);
  EXPECT_LT(look.low_pct, look.change_pct);
  EXPECT_GT(look.low_pct, 200);
  EXPECT_LT(look.high_pct, 260);
}

TEST(SequentialLook, TightPairsWithoutChangeSettleAsNoEffect) {
  const std::vector<double> as_found = {100, 102, 98, 101, 99};
  const std::vector<double> flipped = {100.1, 101.9, 98.2, 100.8, 99.1};
  const SequentialLook look = sequential_look(as_found, flipped, {});
  EXPECT_EQ(look.settled, Settled::kNoEffect);
  EXPECT_GT(look.low_pct, -2);
  EXPECT_LT(look.high_pct, 2);
}

TEST(SequentialLook, NoisyPairsKeepGoingThenEndUnsettled) {
  const std::vector<double> a = {100, 120, 90, 110, 95, 105, 80, 115};
  const std::vector<double> b = {110, 100, 105, 90, 120, 95, 100, 100};
  const SequentialRule rule{.min_pairs = 5, .max_pairs = 8};
  EXPECT_EQ(sequential_look(std::span(a).first(4), std::span(b).first(4), rule).settled,
            Settled::kNotYet);  // before the first look
  EXPECT_EQ(sequential_look(std::span(a).first(6), std::span(b).first(6), rule).settled,
            Settled::kNotYet);
  const SequentialLook last = sequential_look(a, b, rule);
  EXPECT_EQ(last.settled, Settled::kUnsettled);
  EXPECT_LT(last.low_pct, -2);
  EXPECT_GT(last.high_pct, 2);
}

TEST(SequentialLook, RefusesWhatIsNotPairsOfPositiveNumbersOrABadRule) {
  const std::vector<double> three = {1, 2, 3}, two = {1, 2}, bad = {1, 0, 3};
  EXPECT_THROW(sequential_look(three, two, {}), std::invalid_argument);
  EXPECT_THROW(sequential_look(three, bad, {}), std::invalid_argument);
  EXPECT_THROW(sequential_look(std::span(three).first(1), std::span(three).first(1), {}),
               std::invalid_argument);
  EXPECT_THROW(sequential_look(three, three, {.min_pairs = 2, .max_pairs = 2}),
               std::invalid_argument);  // past the last look
  try {
    check_rule({.min_pairs = 5, .max_pairs = 4});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "max 4: from min (5) to 200 pairs");
  }
  EXPECT_THROW(check_rule({.alpha = 0.7}), std::invalid_argument);
  EXPECT_THROW(check_rule({.delta_pct = 0}), std::invalid_argument);
}

// Normal pairs with a true change of `shift` (relative) and noise `cv`.
struct Rates {
  double effect = 0;  // share of probes that ended "effect"
  double mean_pairs = 0;
};

Rates simulate(double shift, double cv, int probes, std::uint64_t seed,
               const SequentialRule& rule) {
  NormalDraws draws(seed);
  Rates r;
  for (int i = 0; i < probes; ++i) {
    const SequentialLook look = run_sequential(
        [&] {
          return std::pair{100 * (1 + cv * draws.next()),
                           100 * (1 + shift) * (1 + cv * draws.next())};
        },
        rule);
    r.effect += look.settled == Settled::kEffect;
    r.mean_pairs += look.pairs;
  }
  r.effect /= probes;
  r.mean_pairs /= probes;
  return r;
}

// The documented error control: over every look, a no-change probe ends
// "effect" in at most alpha of probes (here within 2 binomial SE of 5%),
// and a change of twice the margin ends "no effect" as rarely.
TEST(SequentialErrors, NoChangeFalseAlarmsStayAtAlphaOverAllLooks) {
  const int probes = 4000;
  const Rates none = simulate(0, 0.03, probes, 101, {});
  EXPECT_LE(none.effect, 0.05 + 2 * std::sqrt(0.05 * 0.95 / probes)) << none.effect;
  EXPECT_GT(none.effect, 0.005);  // not so timid that it never fires
}

TEST(SequentialErrors, AClearShiftIsFoundSoonerThanTenPairs) {
  const Rates shifted = simulate(0.10, 0.03, 1000, 202, {});
  EXPECT_GT(shifted.effect, 0.99);
  EXPECT_LT(shifted.mean_pairs, 6.0);
}

}  // namespace
}  // namespace schedrig::stats
