// print_sample_summary: the per-variant sample table of `lab` and
// `results RUN`, on hand-made records and on a stored sampled run.
#include <sstream>

#include <gtest/gtest.h>

#include "host/report/sample_summary_text.h"
#include "tests/host/report/stored_runs.h"
#include "tests/host/report/text_lines.h"

namespace schedrig::report {
namespace {

using schedrig::testing::lines;
using schedrig::testing::words;
using schedrig::testing::Words;

store::IterationRecord iteration(const std::string& c, const std::string& v, unsigned starved,
                                 std::vector<store::SampleStatRecord> stats, double wait_s = 0,
                                 bool gave_up = false) {
  store::IterationRecord it;
  it.case_name = c;
  it.variant = v;
  it.status = "ok";
  it.sample_summary.samples = stats.empty() ? 0 : 5;
  it.sample_summary.starved_intervals = starved;
  it.sample_summary.stats = std::move(stats);
  it.quiet_wait_s = wait_s;
  it.quiet_gave_up = gave_up;
  return it;
}

store::SampleStatRecord stat(const std::string& name, double mean) {
  return {name, "", mean, mean * 2};  // p95 must not be what the table shows
}

store::RunRecord synthetic_run() {
  store::RunRecord run;
  run.iterations = {
      iteration("fork-all", "baseline", 1,
                {stat("idle_pct", 10), stat("runnable", 100), stat("ctxt_per_s", 1000),
                 stat("wait_share_pct", 30), stat("newidle_lb_per_s", 50), stat("psi_some_pct", 5)},
                1.0),
      iteration("fork-all", "no-ni-random", 0,
                {stat("idle_pct", 50), stat("runnable", 2), stat("ctxt_per_s", 500)}),
      iteration("kv", "baseline", 0, {}, 3.0, true),
      iteration("fork-all", "baseline", 2,
                {stat("idle_pct", 20), stat("runnable", 120), stat("ctxt_per_s", 3000),
                 stat("wait_share_pct", 40)},
                2.0),
      iteration("fork-all", "no-ni-random", 0, {}),  // not sampled: left out of the means
  };
  return run;
}

TEST(SampleSummaryText, MeansOfIterationMeansPerVariantWithDashes) {
  std::ostringstream out;
  print_sample_summary(synthetic_run(), out);
  const auto rows = lines(out.str());
  ASSERT_EQ(rows.size(), 7u) << out.str();
  EXPECT_EQ(rows[0], "");
  EXPECT_EQ(rows[1], "sampled, per variant (mean of the iterations' means):");
  EXPECT_EQ(words(rows[2]), (Words{"CASE", "VARIANT", "IDLE%", "RUNNABLE", "CTXT/S", "WAIT%",
                                   "NEWIDLE/S", "PSI%", "STARVED"}));
  EXPECT_EQ(words(rows[3]),
            (Words{"fork-all", "baseline", "15", "110", "2,000", "35", "50", "5", "3"}));
  EXPECT_EQ(words(rows[4]),
            (Words{"fork-all", "no-ni-random", "50", "2", "500", "-", "-", "-", "0"}));
  EXPECT_EQ(words(rows[5]), (Words{"kv", "baseline", "-", "-", "-", "-", "-", "-", "-"}));
  EXPECT_EQ(rows[6],
            "quiet box: checked before 3 of 5 iterations, waited 2 s on average (longest 3 s); 1 "
            "gave up and ran on a busy box");
}

TEST(SampleSummaryText, NothingSampledAndNoWaitPrintsNothing) {
  store::RunRecord run = synthetic_run();
  for (auto& it : run.iterations) {
    it.sample_summary = {};
    it.quiet_wait_s = 0;
    it.quiet_gave_up = false;
  }
  std::ostringstream out;
  print_sample_summary(run, out);
  EXPECT_EQ(out.str(), "");
  print_sample_summary(schedrig::testing::stored_runs().at(0), out);
  EXPECT_EQ(out.str(), "");
}

TEST(SampleSummaryText, QuietLineAloneWhenOnlyTheQuietCheckRan) {
  store::RunRecord run = synthetic_run();
  for (auto& it : run.iterations) it.sample_summary = {};
  std::ostringstream out;
  print_sample_summary(run, out);
  EXPECT_EQ(out.str(),
            "\nquiet box: checked before 3 of 5 iterations, waited 2 s on average (longest 3 s); 1 "
            "gave up and ran on a busy box\n");
}

TEST(SampleSummaryText, StoredSampledRun) {
  std::ostringstream out;
  print_sample_summary(schedrig::testing::stored_sampled_runs().at(0), out);
  const auto rows = lines(out.str());
  ASSERT_EQ(rows.size(), 5u) << out.str();
  // Means 13, 23, 33 of idle; wait share only in the first two (42, 52).
  EXPECT_EQ(words(rows[3]),
            (Words{"fork-all", "baseline", "23", "140", "1,234,578", "47", "683", "13", "3"}));
  EXPECT_EQ(rows[4],
            "quiet box: checked before 3 of 3 iterations, waited 2.5 s on average (longest 3.5 s); "
            "1 gave up and ran on a busy box");
}

}  // namespace
}  // namespace schedrig::report
