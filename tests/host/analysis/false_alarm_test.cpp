// The false-alarm rate of the verdict (the rank test and the cliff at alpha/2
// each) over no-change pairs of 10 vs 10 drawn from real stable per-second
// series (../shared/fixtures/ab-runs/*persecond*): the (R)/(I) rate must stay
// at most 5% within binomial tolerance (2 SE). docs/statistics.md "The cliff".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "host/analysis/verdict.h"
#include "host/compare/series_csv.h"
#include "tests/support/fixtures.h"

namespace schedrig::analysis {
namespace {

constexpr std::size_t kPerSide = 10;
constexpr std::size_t kRampUpSeconds = 60;   // the first minute of each run climbs
constexpr std::size_t kSpacingSeconds = 30;  // one value per 30 s block
constexpr std::size_t kDrawsPerSeries = 2000;

// One variant of a fixture with its ramp-up cut off.
std::vector<double> stable_series(const std::string& file, const std::string& variant) {
  return compare::read_variant_values(testing::fixture_path("ab-runs/" + file).string(), variant,
                                      kRampUpSeconds);
}

// A no-change pair: 2 x kPerSide of the series' 30 s blocks chosen at random,
// the middle second of each (values 30 s apart or more, so nearly
// independent), shuffled into baseline and variant.
void draw_pair(const std::vector<double>& series, std::mt19937_64& rng, std::vector<double>& base,
               std::vector<double>& variant) {
  std::vector<std::size_t> blocks(series.size() / kSpacingSeconds);
  for (std::size_t i = 0; i < blocks.size(); ++i) blocks[i] = i;
  std::shuffle(blocks.begin(), blocks.end(), rng);
  base.clear();
  variant.clear();
  for (std::size_t i = 0; i < 2 * kPerSide; ++i) {
    const double v = series[blocks[i] * kSpacingSeconds + kSpacingSeconds / 2];
    (i < kPerSide ? base : variant).push_back(v);
  }
}

struct Rate {
  std::size_t pairs = 0, marked = 0, by_rank = 0, by_cliff = 0;
  double fraction() const { return static_cast<double>(marked) / static_cast<double>(pairs); }
  // Binomial SE at the nominal 5%.
  double bound() const { return 0.05 + 2 * std::sqrt(0.05 * 0.95 / static_cast<double>(pairs)); }
};

Rate measure(const std::vector<double>& series, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> base, variant;
  Rate r;
  for (std::size_t d = 0; d < kDrawsPerSeries; ++d) {
    draw_pair(series, rng, base, variant);
    const Comparison c = compare_samples(base, variant);
    const bool marked = c.verdict == Verdict::kRegression || c.verdict == Verdict::kImprovement;
    ++r.pairs;
    r.marked += marked;
    r.by_rank += c.p_value < 0.025;
    r.by_cliff += c.cliff.significant_below || c.cliff.significant_above;
  }
  return r;
}

TEST(FalseAlarms, NoChangePairsFromRealStableSeriesStayWithinFivePercent) {
  SCHEDRIG_REQUIRE_FIXTURE(testing::fixture_path("ab-runs/"));
  const struct {
    const char* file;
    const char* variant;
  } sources[] = {
      {"vondra_pgbench_i5_persecond_ro_s300_c16.csv", "k3.12.58"},          // steady ~58.8k
      {"vondra_pgbench_i5_persecond_ro_s300_c16.csv", "baseline"},          // flips to ~45k
      {"vondra_pgbench_i5_persecond_rw_s30_c16_sawtooth.csv", "baseline"},  // flat ~8.2k
  };
  Rate all;
  std::uint64_t seed = 14;
  for (const auto& src : sources) {
    const std::vector<double> series = stable_series(src.file, src.variant);
    ASSERT_GE(series.size() / kSpacingSeconds, 2 * kPerSide) << src.file;
    const Rate r = measure(series, seed++);
    std::printf("false alarms: %s %s: %zu of %zu pairs (%.2f%%; rank test %zu, cliff %zu)\n",
                src.file, src.variant, r.marked, r.pairs, 100 * r.fraction(), r.by_rank,
                r.by_cliff);
    EXPECT_LE(r.fraction(), r.bound()) << src.file << " " << src.variant;
    all.pairs += r.pairs;
    all.marked += r.marked;
    all.by_rank += r.by_rank;
    all.by_cliff += r.by_cliff;
  }
  std::printf("false alarms: all: %zu of %zu pairs (%.2f%%, bound %.2f%%)\n", all.marked, all.pairs,
              100 * all.fraction(), 100 * all.bound());
  EXPECT_LE(all.fraction(), all.bound());
  // The test is not vacuous: each half does fire sometimes.
  EXPECT_GT(all.by_rank, 0u);
  EXPECT_GT(all.by_cliff, 0u);
}

}  // namespace
}  // namespace schedrig::analysis
