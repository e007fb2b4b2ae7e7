// Comparison rows from runs stored in a real (temporary) SQLite store.
#include "host/compare/compare_table.h"

#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "host/report/compare_json.h"
#include "host/report/compare_text.h"
#include "tests/host/compare/synthetic_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::compare {
namespace {

using report::compare_json;
using report::print_compare_csv;
using report::print_compare_table;

using analysis::Verdict;
using testing::jitter;
using testing::SyntheticRun;

constexpr const char* kRunA = "aaaaaaaa-1111-4111-8111-000000000001";
constexpr const char* kRunB = "bbbbbbbb-2222-4222-8222-000000000002";

// baseline ~10000 ops/s +-0.5%; "faster" +5%, "slower" -5%, "same" unchanged.
double three_way(const std::string& /*case*/, const std::string& variant, unsigned i) {
  const double base = 10000 * (1 + 0.005 * jitter(i));
  if (variant == "faster") return base * 1.05;
  if (variant == "slower") return 10000 * (1 + 0.005 * jitter(i, 3)) * 0.95;
  if (variant == "same") return 10000 * (1 + 0.005 * jitter(i, 1));
  return base;
}

class CompareTable : public ::testing::Test {
 protected:
  store::RunRecord stored(const SyntheticRun& s) {
    store::Store db(dir_.file("schedrig.db"));
    testing::ingest(db, testing::synthetic_run(s));
    auto runs = db.runs(s.run_id);
    EXPECT_EQ(runs.size(), 1u);
    return runs.front();
  }
  SyntheticRun three_variants(unsigned iterations) {
    SyntheticRun s;
    s.run_id = kRunA;
    s.variants = {"baseline", "faster", "slower", "same"};
    s.iterations = iterations;
    s.ops = three_way;
    return s;
  }
  testing::TempDir dir_;
};

TEST_F(CompareTable, EveryVariantAgainstTheBaselineAtTenIterations) {
  const Table t = compare_variants(stored(three_variants(10)));
  EXPECT_EQ(t.baseline_label, "baseline");
  EXPECT_EQ(t.columns, (std::vector<std::string>{"faster", "slower", "same"}));
  ASSERT_EQ(t.rows.size(), 2u);  // one case, two metrics
  const Row& ops = t.rows[0];
  EXPECT_EQ(ops.case_name, "fork-all");
  EXPECT_EQ(ops.metric, "ops_per_s");
  EXPECT_EQ(ops.unit, "ops/s");
  EXPECT_TRUE(ops.higher_is_better);
  EXPECT_EQ(ops.baseline.values.size(), 10u);
  EXPECT_EQ(ops.baseline.iterations.front(), 1u);
  ASSERT_EQ(ops.cells.size(), 3u);
  EXPECT_EQ(ops.cells[0].comparison.verdict, Verdict::kImprovement);
  EXPECT_EQ(ops.cells[0].comparison.test, analysis::StatTest::kMannWhitney);
  EXPECT_NEAR(ops.cells[0].comparison.change_pct, 5.0, 1e-9);
  EXPECT_EQ(ops.cells[1].comparison.verdict, Verdict::kRegression);
  EXPECT_EQ(ops.cells[2].comparison.verdict, Verdict::kNone);

  // Latency: lower is better, so the faster variant's lower latency is (I).
  const Row& lat = t.rows[1];
  EXPECT_EQ(lat.metric, "wakeup_p99_us");
  EXPECT_FALSE(lat.higher_is_better);
  EXPECT_EQ(lat.cells[0].comparison.verdict, Verdict::kImprovement);
  EXPECT_LT(lat.cells[0].comparison.change_pct, -4.0);
  EXPECT_EQ(lat.cells[1].comparison.verdict, Verdict::kRegression);
  EXPECT_GT(lat.cells[1].comparison.change_pct, 4.0);
  EXPECT_TRUE(has_regression(t));
}

TEST_F(CompareTable, ThreeIterationsUseWelchOnLogs) {
  const Table t = compare_variants(stored(three_variants(3)));
  const Cell& faster = t.rows[0].cells[0];
  EXPECT_EQ(faster.comparison.test, analysis::StatTest::kWelchLog);
  EXPECT_TRUE(faster.comparison.parametric);
  EXPECT_EQ(faster.comparison.verdict, Verdict::kImprovement);
  EXPECT_EQ(t.rows[0].cells[1].comparison.verdict, Verdict::kRegression);
  EXPECT_EQ(t.rows[0].cells[2].comparison.verdict, Verdict::kNone);
}

TEST_F(CompareTable, FailedIterationsAreLeftOut) {
  SyntheticRun s = three_variants(5);
  s.failed = {{"faster", 2}, {"faster", 4}, {"baseline", 1}};
  const Table t = compare_variants(stored(s));
  EXPECT_EQ(t.rows[0].baseline.iterations, (std::vector<unsigned>{2, 3, 4, 5}));
  EXPECT_EQ(t.rows[0].cells[0].side.iterations, (std::vector<unsigned>{1, 3, 5}));
  // 4 vs 3 iterations: the parametric test, with its note.
  EXPECT_EQ(t.rows[0].cells[0].comparison.test, analysis::StatTest::kWelchLog);
}

TEST_F(CompareTable, BaselineVariantCanBeChosen) {
  CompareOptions o;
  o.baseline_variant = "faster";
  const Table t = compare_variants(stored(three_variants(10)), o);
  EXPECT_EQ(t.baseline_label, "faster");
  EXPECT_EQ(t.columns, (std::vector<std::string>{"baseline", "slower", "same"}));
  EXPECT_EQ(t.rows[0].cells[0].comparison.verdict, Verdict::kRegression);
}

TEST_F(CompareTable, UnknownBaselineVariantNamesTheRunAndItsVariants) {
  CompareOptions o;
  o.baseline_variant = "nope";
  try {
    compare_variants(stored(three_variants(3)), o);
    FAIL() << "no error";
  } catch (const CompareError& e) {
    EXPECT_STREQ(e.what(),
                 "run aaaaaaaa has no variant 'nope' (variants: baseline, faster, slower, same)");
  }
}

TEST_F(CompareTable, UnsetDirectionIsAssumedHigherIsBetterAndSaidSo) {
  SyntheticRun s = three_variants(10);
  s.latency_direction_unset = true;
  const Table t = compare_variants(stored(s));
  const Row& lat = t.rows[1];
  EXPECT_TRUE(lat.direction_assumed);
  EXPECT_TRUE(lat.higher_is_better);
  EXPECT_NE(lat.cells[0].comparison.note.find("direction unset"), std::string::npos);
}

TEST_F(CompareTable, AgainstAnotherRunListsFingerprintDifferences) {
  SyntheticRun a = three_variants(10);
  a.kernel = "6.19.0-rc4";
  a.fingerprint_fields = {{"thp", "madvise"}, {"smt", "on"}, {"governor", "performance"}};
  a.sched_features = "PLACE_LAG RUN_TO_PARITY NO_NI_RANDOM";
  a.cases = {"fork-all", "wakeup"};
  // Kernel B is 10% slower in every variant.
  a.ops = [](const std::string& c, const std::string& v, unsigned i) {
    return three_way(c, v, i) * 0.9;
  };
  SyntheticRun b = three_variants(10);
  b.run_id = kRunB;
  b.instance = "0b5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5c";
  b.variants = {"baseline", "faster"};
  store::Store db(dir_.file("two.db"));
  testing::ingest(db, testing::synthetic_run(a));
  testing::ingest(db, testing::synthetic_run(b));
  const auto run_a = db.runs(kRunA).front(), run_b = db.runs(kRunB).front();
  EXPECT_EQ(run_a.fingerprint.at("kernel_release"), "6.19.0-rc4");
  EXPECT_EQ(run_a.fingerprint.at("thp"), "madvise");

  const Table t = compare_runs(run_a, run_b);
  EXPECT_EQ(t.baseline_label, "bbbbbbbb");
  EXPECT_EQ(t.columns, (std::vector<std::string>{"aaaaaaaa"}));
  // Rows: the common case fork-all x the common variants x two metrics.
  ASSERT_EQ(t.rows.size(), 4u);
  EXPECT_EQ(t.rows[0].variant, "baseline");
  EXPECT_EQ(t.rows[0].metric, "ops_per_s");
  EXPECT_EQ(t.rows[2].variant, "faster");
  for (const Row& r : t.rows) {
    ASSERT_EQ(r.cells.size(), 1u);
    EXPECT_EQ(r.cells[0].comparison.verdict, Verdict::kRegression) << r.variant << r.metric;
  }
  EXPECT_NEAR(t.rows[0].cells[0].comparison.change_pct, -10.0, 0.2);
  ASSERT_EQ(t.fingerprint_differences.size(), 4u);
  EXPECT_EQ(t.fingerprint_differences[0].field, "governor");
  EXPECT_EQ(t.fingerprint_differences[0].reference, "");
  EXPECT_EQ(t.fingerprint_differences[0].run, "performance");
  EXPECT_EQ(t.fingerprint_differences[1].field, "kernel_release");
  EXPECT_EQ(t.fingerprint_differences[2].field, "sched_features");
  EXPECT_EQ(t.fingerprint_differences[3].field, "thp");
  EXPECT_EQ(t.fingerprint_differences[3].reference, "always");
  EXPECT_EQ(t.fingerprint_differences[3].run, "madvise");
  EXPECT_EQ(t.unmatched, (std::vector<std::string>{"case 'wakeup' only in run aaaaaaaa",
                                                   "variant 'slower' only in run aaaaaaaa",
                                                   "variant 'same' only in run aaaaaaaa"}));

  std::ostringstream text;
  print_compare_table(t, text);
  EXPECT_NE(text.str().find("run aaaaaaaa (altra-01.lab, 6.19.0-rc4) against run bbbbbbbb "
                            "(altra-01.lab, 6.19.0-rc3)"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("  thp: always -> madvise\n"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("  sched_features: -NI_RANDOM +NO_NI_RANDOM\n"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("  governor: - -> performance\n"), std::string::npos) << text.str();

  CompareOptions only;
  only.baseline_variant = "faster";
  EXPECT_EQ(compare_runs(run_a, run_b, only).rows.size(), 2u);
}

// A box that sets a sched feature at every boot (a tmpfiles drop-in) is not
// "the box as found" of the kernel's defaults: compare names it for each
// run that has one, beside the fingerprint difference (issue #19).
TEST_F(CompareTable, AKnobPersistedAtBootIsNamedPerRun) {
  SyntheticRun a = three_variants(10);
  a.fingerprint_fields = {{"persisted_knobs",
                           "sched_features=NO_NI_RANDOM (/etc/tmpfiles.d/schedrig-sched-features."
                           "conf:1)"}};
  SyntheticRun b = three_variants(10);
  b.run_id = kRunB;
  b.instance = "0b5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5c";
  b.fingerprint_fields = {{"persisted_knobs", "none"}};
  store::Store db(dir_.file("persisted.db"));
  testing::ingest(db, testing::synthetic_run(a));
  testing::ingest(db, testing::synthetic_run(b));
  const Table t = compare_runs(db.runs(kRunA).front(), db.runs(kRunB).front());
  ASSERT_EQ(t.runs.size(), 2u);
  EXPECT_EQ(t.runs[0].persisted_knobs,
            "sched_features=NO_NI_RANDOM (/etc/tmpfiles.d/schedrig-sched-features.conf:1)");
  EXPECT_EQ(t.runs[1].persisted_knobs, "");  // "none"

  std::ostringstream text;
  print_compare_table(t, text);
  EXPECT_NE(text.str().find("\nrun aaaaaaaa: its box sets knobs at every boot (the box as found is "
                            "not the kernel's default): sched_features=NO_NI_RANDOM "
                            "(/etc/tmpfiles.d/schedrig-sched-features.conf:1)\n"),
            std::string::npos)
      << text.str();
  EXPECT_EQ(text.str().find("run bbbbbbbb: its box sets"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("  persisted_knobs: -none +sched_features=NO_NI_RANDOM"),
            std::string::npos)
      << text.str();
  const nlohmann::json j = compare_json(t);
  EXPECT_EQ(j["runs"][0]["persisted_knobs"], t.runs[0].persisted_knobs);
  EXPECT_TRUE(j["runs"][1]["persisted_knobs"].is_null());
}

TEST_F(CompareTable, RunsWithoutACommonCaseAreAnError) {
  SyntheticRun a = three_variants(3);
  SyntheticRun b = three_variants(3);
  b.run_id = kRunB;
  b.instance = "0b5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5c";
  b.cases = {"other"};
  store::Store db(dir_.file("two.db"));
  testing::ingest(db, testing::synthetic_run(a));
  testing::ingest(db, testing::synthetic_run(b));
  EXPECT_THROW(compare_runs(db.runs(kRunA).front(), db.runs(kRunB).front()), CompareError);
}

// The console table: per case and metric the baseline's line (median with
// unit, n, CoV), then a line per variant with its change and mark, CI and
// p-value; the legend under it.
TEST_F(CompareTable, ConsoleTableHasALinePerVariant) {
  const Table t = compare_variants(stored(three_variants(10)));
  std::ostringstream out;
  print_compare_table(t, out);
  const std::string s = out.str();
  EXPECT_EQ(s.rfind("run aaaaaaaa (altra-01.lab, 6.19.0-rc3), plan 'fork-vs-features': each "
                    "variant against 'baseline'\n",
                    0),
            0u)
      << s;
  std::istringstream lines(s);
  std::string header, line;
  std::getline(lines, header);
  std::getline(lines, header);  // blank
  std::getline(lines, header);
  EXPECT_EQ(header,
            "CASE      METRIC         VARIANT         MEDIAN   n   CoV  CHANGE      95% CI (%)  "
            "         p")
      << s;
  std::getline(lines, line);
  // Baseline median: 10000 (1 + 0.005 * 0.1), the middle of the jitter
  // pattern's first ten values; their CoV is 0.35%.
  EXPECT_EQ(line, "fork-all  ops_per_s      baseline  10,005 ops/s  10  0.4%") << s;
  std::getline(lines, line);
  EXPECT_EQ(
      line.rfind("                         faster    10,505 ops/s  10  0.4%  +5.00% (I)  [+", 0),
      0u)
      << s;
  // Complete separation, exact 10 vs 10: p = 2 / C(20, 10) = 1.1e-5.
  EXPECT_EQ(line.substr(line.size() - 8), "  <0.001") << line;
  std::getline(lines, line);
  EXPECT_NE(line.find("slower"), std::string::npos) << line;
  EXPECT_NE(line.find("-5."), std::string::npos) << line;
  EXPECT_NE(line.find("(R)"), std::string::npos) << line;
  EXPECT_NE(s.find("(I) improvement, (R) regression: significant at 95% confidence (two-sided)"),
            std::string::npos);
  EXPECT_NE(s.find("method auto: with >= 5 iterations a side, the Mann-Whitney U test"),
            std::string::npos);
  EXPECT_NE(s.find("Threshold 0%."), std::string::npos);
}

TEST_F(CompareTable, BimodalSeriesAreNamedNextToTheVerdictAndInWords) {
  SyntheticRun s = three_variants(10);
  s.variants = {"baseline", "ni-random"};
  // The seed-000 shape in the variant: two high, six low, two high.
  s.ops = [](const std::string&, const std::string& v, unsigned i) {
    if (v == "baseline") return 126000 * (1 + 0.01 * jitter(i));
    return (i >= 3 && i <= 8 ? 38100.0 : 126000.0) * (1 + 0.003 * jitter(i, 2));
  };
  const Table t = compare_variants(stored(s));
  const Cell& cell = t.rows[0].cells[0];
  EXPECT_TRUE(cell.side.analysis.modes.bimodal);
  EXPECT_EQ(cell.comparison.verdict, Verdict::kRegression);
  EXPECT_NE(cell.comparison.note.find("variant bimodal (2 flips)"), std::string::npos);
  std::ostringstream out;
  print_compare_table(t, out);
  EXPECT_NE(out.str().find("38,186 ops/s bimodal  10  62.0%  -69.72% (R)"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("fork-all / ni-random / ops_per_s: bimodal: 6 of 10 iterations at "
                           "~38.1k"),
            std::string::npos)
      << out.str();
  // Said once in words; the short remark stays in JSON and CSV only.
  EXPECT_EQ(out.str().find("variant bimodal (2 flips)"), std::string::npos) << out.str();
}

TEST_F(CompareTable, JsonAndCsvCarryEveryRow) {
  const Table t = compare_variants(stored(three_variants(10)));
  const nlohmann::json j = compare_json(t);
  EXPECT_EQ(j["run"], kRunA);
  EXPECT_TRUE(j["against"].is_null());
  EXPECT_EQ(j["baseline"], "baseline");
  EXPECT_EQ(j["method"], "auto");
  ASSERT_EQ(j["rows"].size(), 2u);
  const auto& row = j["rows"][0];
  EXPECT_EQ(row["case"], "fork-all");
  EXPECT_EQ(row["direction"], "higher_is_better");
  EXPECT_EQ(row["baseline"]["n"], 10);
  EXPECT_EQ(row["baseline"]["run"], kRunA);
  ASSERT_EQ(row["variants"].size(), 3u);
  EXPECT_EQ(row["variants"][0]["name"], "faster");
  EXPECT_EQ(row["variants"][0]["comparison"]["verdict"], "improvement");
  EXPECT_EQ(row["variants"][0]["comparison"]["test"], "mann-whitney");
  EXPECT_EQ(row["variants"][0]["comparison"]["ci95_pct"].size(), 2u);
  EXPECT_EQ(row["variants"][1]["comparison"]["verdict"], "regression");

  std::ostringstream csv;
  print_compare_csv(t, csv);
  std::istringstream lines(csv.str());
  std::string line;
  std::vector<std::string> all;
  while (std::getline(lines, line)) all.push_back(line);
  ASSERT_EQ(all.size(), 1u + 2 * 3);
  EXPECT_EQ(all[0].rfind("case,variant,metric,unit,direction,baseline_run", 0), 0u);
  EXPECT_NE(all[1].find(",faster,"), std::string::npos);
  EXPECT_NE(all[1].find(",improvement,"), std::string::npos);
}

TEST(FingerprintDifferences, ListsChangedAddedAndRemovedFields) {
  const auto d = fingerprint_differences({{"a", "1"}, {"b", "2"}, {"c", "3"}},
                                         {{"a", "1"}, {"b", "5"}, {"d", "4"}});
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].field, "b");
  EXPECT_EQ(d[1].field, "c");
  EXPECT_EQ(d[1].run, "");
  EXPECT_EQ(d[2].field, "d");
  EXPECT_EQ(d[2].reference, "");
}

}  // namespace
}  // namespace schedrig::compare
