// The analysis over real A/B series (../shared/fixtures/ab-runs/): each test
// asserts what the fixture's README row and meta file say about it.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "host/compare/analyze_series.h"
#include "host/compare/series_csv.h"
#include "tests/support/fixtures.h"

namespace schedrig::compare {
namespace {

using analysis::StatTest;
using analysis::Verdict;

const std::string kDir = testing::fixture_path("ab-runs/").string();

// The report for one fixture; variants by name through find().
struct Fixture {
  AnalyzeReport report;
  std::size_t index(const std::string& name) const {
    for (std::size_t i = 0; i < report.series.size(); ++i) {
      if (report.series[i].name == name) return i;
    }
    ADD_FAILURE() << "no variant " << name;
    return 0;
  }
  const analysis::SeriesAnalysis& series(const std::string& name) const {
    return report.analyses[index(name)];
  }
  const analysis::Comparison& versus(const std::string& name) const {
    return report.comparisons.at(index(name) - 1);
  }
};

Fixture load(const std::string& name, std::size_t skip_first = 0) {
  std::vector<NamedSeries> series = read_series_csv(kDir + name + ".csv");
  for (NamedSeries& s : series) {  // drop a ramp-up
    const auto n = std::min(skip_first, s.values.size());
    s.values.erase(s.values.begin(), s.values.begin() + static_cast<std::ptrdiff_t>(n));
    s.iterations.erase(s.iterations.begin(), s.iterations.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return Fixture{analyze_series_set(std::move(series), {}, name)};
}

class AbFixtures : public ::testing::Test {
 protected:
  void SetUp() override { SCHEDRIG_REQUIRE_FIXTURE(kDir); }
};

// "big improvements": ~5000 -> ~8600 -> ~10450 tps, tight runs, n = 3.
TEST_F(AbFixtures, PgbenchReadOnlyScale30BigImprovements) {
  const Fixture f = load("vondra_pgbench_e5_ro_s30_c1");
  for (const char* v : {"k3.10.101", "k4.5.5"}) {
    EXPECT_EQ(f.versus(v).verdict, Verdict::kImprovement) << v;
    EXPECT_EQ(f.versus(v).test, StatTest::kWelchLog) << v;
    EXPECT_TRUE(f.versus(v).parametric) << v;
  }
  // Medians 5013.23 -> 8637.64 and 10487.63 (python3 statistics.median).
  EXPECT_NEAR(f.versus("k3.10.101").change_pct, 72.30, 0.01);
  EXPECT_NEAR(f.versus("k4.5.5").change_pct, 109.20, 0.01);
}

// "improvement; 4.5.5's third run in a low mode": k3.10.101 clearly better
// (~+49%); k4.5.5 at +69% by means is not significant (meta: Welch p~0.13):
// "inconclusive / unstable", with n = 3 too small to call bimodality, "but
// the engine should at least report high variance".
TEST_F(AbFixtures, PgbenchLargeDataSetThirdRunInALowMode) {
  const Fixture f = load("vondra_pgbench_e5_ro_s35000_c64");
  EXPECT_EQ(f.versus("k3.10.101").verdict, Verdict::kImprovement);
  EXPECT_NEAR(f.versus("k3.10.101").change_pct, 49.0, 0.5);
  const analysis::Comparison& c = f.versus("k4.5.5");
  EXPECT_EQ(c.verdict, Verdict::kNone);
  EXPECT_GT(c.p_value, 0.05);
  EXPECT_LT(c.ci_lo_pct, 0.0);
  EXPECT_FALSE(f.series("k4.5.5").modes.bimodal);
  EXPECT_GT(f.series("k4.5.5").summary.cov_pct, 20.0);
  EXPECT_NE(c.note.find("variant noisy (CoV 27.9%)"), std::string::npos) << c.note;
}

// "+2.2% borderline; -36% regression" (meta: Welch t=2.3, p~0.1 at n=3 ->
// not significant at 95%).
TEST_F(AbFixtures, PgbenchReadWriteBorderlineAndRegression) {
  const Fixture f = load("vondra_pgbench_e5_rw_s2500_c32");
  const analysis::Comparison& borderline = f.versus("k3.10.101");
  EXPECT_EQ(borderline.verdict, Verdict::kNone);
  EXPECT_NEAR(borderline.p_value, 0.10232977575473633, 1e-9);  // welch_test.cpp's reference
  EXPECT_GT(borderline.change_pct, 1.5);
  const analysis::Comparison& k45 = f.versus("k4.5.5");
  EXPECT_EQ(k45.verdict, Verdict::kRegression);
  EXPECT_NEAR(k45.change_pct, -36.5, 0.5);
  EXPECT_LT(k45.ci_hi_pct, -30.0);
}

// "noisy drifting candidate; clear improvement": k3.10.101 +35% but very
// noisy and monotonically falling (1210.6 -> 1036.9 -> 843.3), Welch
// p~0.13 -> not significant; k4.5.5 clearly higher and tighter.
TEST_F(AbFixtures, PgbenchSingleClientNoisyFallingCandidate) {
  const Fixture f = load("vondra_pgbench_e5_rw_s30_c1");
  const analysis::Comparison& noisy = f.versus("k3.10.101");
  EXPECT_EQ(noisy.verdict, Verdict::kNone);
  EXPECT_GT(noisy.p_value, 0.05);
  EXPECT_NEAR(noisy.change_pct, 34.8, 0.5);
  const analysis::SeriesAnalysis& s = f.series("k3.10.101");
  EXPECT_DOUBLE_EQ(s.drift.tau, -1.0);  // monotonically falling ...
  EXPECT_LT(s.drift.change_pct, -25.0);
  EXPECT_FALSE(s.drift.present);  // ... but three iterations cannot show drift (p = 1/3)
  EXPECT_GT(s.summary.cov_pct, 15.0);
  EXPECT_EQ(f.versus("k4.5.5").verdict, Verdict::kImprovement);
}

// "baseline flips between ~57.7k and ~45k; candidate steady": after ramp-up
// the 3.10.101 series sits at ~57.5-58k and repeatedly drops for 1-8 s to
// ~44-47k, every 10-40 s; 3.12.58 is unimodal (~58.8k). The first 60 s are
// ramp-up (meta: "keep or trim as you like"); trimmed here.
TEST_F(AbFixtures, PgbenchPerSecondBaselineFlipsCandidateSteady) {
  const Fixture f = load("vondra_pgbench_i5_persecond_ro_s300_c16", 60);
  const analysis::SeriesAnalysis& base = f.series("baseline");
  ASSERT_TRUE(base.modes.bimodal);
  ASSERT_EQ(base.modes.modes.size(), 2u);
  EXPECT_GT(base.modes.modes[0].center, 57000);  // the usual level
  EXPECT_LT(base.modes.modes[0].center, 58500);
  EXPECT_GT(base.modes.modes[1].center, 44000);  // the drops
  EXPECT_LT(base.modes.modes[1].center, 47000);
  EXPECT_GT(base.modes.modes[0].count, 5 * base.modes.modes[1].count);
  // 840 s with a drop every 10-40 s: 21-84 drops, two flips each.
  EXPECT_GE(base.modes.flips, 42u);
  EXPECT_LE(base.modes.flips, 168u);
  EXPECT_FALSE(f.series("k3.12.58").modes.bimodal);
  EXPECT_LT(f.series("k3.12.58").summary.cov_pct, 1.0);
  // "as an A/B the candidate is better", but per-second samples are
  // autocorrelated: the note says the p-value overstates the evidence.
  const analysis::Comparison& c = f.versus("k3.12.58");
  EXPECT_EQ(c.verdict, Verdict::kImprovement);
  EXPECT_NE(c.note.find("baseline bimodal"), std::string::npos) << c.note;
  EXPECT_NE(c.note.find("autocorrelated"), std::string::npos) << c.note;
}

// "candidate periodic sawtooth (not a two-level flip)": 7.7k plateau,
// decay over ~100 s to ~2.5k, jump to ~5.8k, back; baseline flat ~8.2k.
// Expected: large significant regression; a cyclic decay not mislabelled
// as a two-state flip; strong non-stationarity.
TEST_F(AbFixtures, PgbenchSawtoothIsNotATwoLevelFlip) {
  const Fixture f = load("vondra_pgbench_i5_persecond_rw_s30_c16_sawtooth");
  const analysis::SeriesAnalysis& saw = f.series("k3.11.10");
  EXPECT_FALSE(saw.modes.bimodal);
  EXPECT_LT(saw.modes.gap_to_spread, 3.0);
  EXPECT_FALSE(saw.drift.present);  // it cycles; it does not climb or fall steadily
  EXPECT_GT(saw.summary.cov_pct, 30.0);
  EXPECT_GT(saw.lag1, 0.9);  // the non-stationarity: each second is like the one before
  EXPECT_FALSE(f.series("baseline").modes.bimodal);
  const analysis::Comparison& c = f.versus("k3.11.10");
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  EXPECT_LT(c.change_pct, -30.0);
  EXPECT_EQ(c.test, StatTest::kMannWhitney);
  EXPECT_NE(c.note.find("variant iterations autocorrelated"), std::string::npos) << c.note;
}

// "no change (BORE); improvement with drift (ECHO)": bore 5926-6085 vs
// 5907-6231; echo ~+9% but drifting down (6908, 6878, 6467, 6303),
// "probably significant improvement at n=4 with Welch t".
TEST_F(AbFixtures, StressNgCpuNoChangeAndImprovementWithDrift) {
  const Fixture f = load("cachyos_stressng_cpu_eevdf_bore_echo");
  EXPECT_EQ(f.versus("bore").verdict, Verdict::kNone);
  const analysis::Comparison& echo = f.versus("echo");
  EXPECT_EQ(echo.verdict, Verdict::kImprovement);
  EXPECT_EQ(echo.test, StatTest::kWelchLog);
  const analysis::SeriesAnalysis& s = f.series("echo");
  EXPECT_TRUE(s.drift.present);
  EXPECT_DOUBLE_EQ(s.drift.tau, -1.0);
  EXPECT_NEAR(s.drift.p_value, 1.0 / 12, 1e-12);
  EXPECT_LT(s.drift.change_pct, -5.0);
  EXPECT_EQ(analysis::describe(s), "drift: -9% over 4 iterations (tau -1.00)");
  EXPECT_NE(echo.note.find("variant drift -9%"), std::string::npos) << echo.note;
}

// "improvement (BORE); n=2 candidate (ECHO)": bore ~+22% at n=4; echo has
// only two runs ("good small-n edge case").
TEST_F(AbFixtures, StressNgIoUringImprovementAndTwoRunCandidate) {
  const Fixture f = load("cachyos_stressng_iouring_eevdf_bore_echo");
  EXPECT_EQ(f.versus("bore").verdict, Verdict::kImprovement);
  EXPECT_GT(f.versus("bore").change_pct, 15.0);
  const analysis::Comparison& echo = f.versus("echo");
  EXPECT_EQ(f.series("echo").summary.n, 2u);
  EXPECT_EQ(echo.test, StatTest::kWelchLog);
  EXPECT_TRUE(echo.parametric);
  EXPECT_EQ(echo.verdict, Verdict::kImprovement);
  EXPECT_NE(echo.note.find("few iterations (n=4 vs 2)"), std::string::npos) << echo.note;
}

// "noisy, multi-level runs": echo at three levels (~20k/~37k/~61k);
// baseline's first run low (20335) then ~31-33k. Expected: no significant
// change; an instability flag on echo (and arguably baseline).
TEST_F(AbFixtures, StressNgVmNoisyMultiLevelRuns) {
  const Fixture f = load("cachyos_stressng_vm_eevdf_bore_echo");
  EXPECT_EQ(f.versus("bore").verdict, Verdict::kNone);
  const analysis::Comparison& echo = f.versus("echo");
  EXPECT_EQ(echo.verdict, Verdict::kNone);
  EXPECT_NE(echo.note.find("variant noisy (CoV 40.7%)"), std::string::npos) << echo.note;
  EXPECT_NE(echo.note.find("baseline noisy"), std::string::npos) << echo.note;
  // One low run is an outlier, not a second mode.
  EXPECT_FALSE(f.series("baseline").modes.bimodal);
}

}  // namespace
}  // namespace schedrig::compare
