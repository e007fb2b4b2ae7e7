// `compare --against`: cases whose definitions differ are refused (or paired
// with --force, and said), topology differences listed, several runs a side
// pooled, the boots behind each side counted and, with two or more a side,
// the boot-level verdict beside the iteration-level one.
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "host/compare/compare_table.h"
#include "host/compare/gate.h"
#include "host/report/compare_json.h"
#include "host/report/compare_text.h"
#include "tests/host/compare/stored_runs.h"

namespace schedrig::compare {
namespace {

using testing::jitter;
using testing::SyntheticRun;

// Run n: one case, baseline only, ~10000 ops/s (x factor), on boot `boot`.
SyntheticRun run_on(unsigned n, const std::string& boot, double factor = 1) {
  SyntheticRun s;
  s.run_id = testing::run_id(n);
  s.instance = testing::instance_id(n);
  s.boot_id = boot;
  s.variants = {"baseline"};
  s.params = {{"workers", "4"}, {"fork_max", "1"}};
  s.cpus = "0-3";
  s.pus = 4;
  s.ops = [n, factor](const std::string&, const std::string&, unsigned i) {
    return 10000 * factor * (1 + 0.005 * jitter(i, n));
  };
  return s;
}

class Across : public testing::StoredRuns {};

TEST_F(Across, CasesThatDifferAreRefusedNamingWhat) {
  SyntheticRun other = run_on(2, "boot-b");
  other.params["workers"] = "8";
  other.cpus = "0-7";
  other.pus = 8;
  const store::RunRecord a = stored(run_on(1, "boot-a")), b = stored(other);
  try {
    compare_runs(b, a);
    FAIL() << "no error";
  } catch (const CompareError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_STREQ(e.what(),
                 "cases differ between the runs, so their numbers do not compare (--force pairs "
                 "them anyway): case 'fork-all' (r1000000 -> r2000000): params.workers: 4 -> 8, "
                 "cpulist: 0-3 -> 0-7, PUs: 4 -> 8");
  }
  CompareOptions force;
  force.force = true;
  const Table t = compare_runs(b, a, force);
  ASSERT_EQ(t.forced.size(), 1u);
  ASSERT_EQ(t.topology_differences.size(), 2u);
  EXPECT_EQ(t.topology_differences[0].field, "pus");
  EXPECT_EQ(t.topology_differences[0].reference, "4");
  EXPECT_EQ(t.topology_differences[0].run, "8");
  EXPECT_EQ(t.topology_differences[1].field, "cpus[fork-all]");
  std::ostringstream out;
  report::print_compare_table(t, out);
  EXPECT_NE(out.str().find("topology fields that differ (r1000000 -> r2000000):\n  pus: 4 -> 8\n  "
                           "cpus[fork-all]: 0-3 -> 0-7\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("--force: paired cases whose definitions differ:\n  case 'fork-all' "
                           "(r1000000 -> r2000000): params.workers: 4 -> 8"),
            std::string::npos)
      << out.str();
}

TEST_F(Across, PlacementAndWorkloadDifferencesAreNamedToo) {
  SyntheticRun other = run_on(2, "boot-b");
  other.placement = "cpulist:0-3";
  const store::RunRecord a = stored(run_on(1, "boot-a")), b = stored(other);
  try {
    compare_runs(b, a);
    FAIL() << "no error";
  } catch (const CompareError& e) {
    EXPECT_NE(std::string(e.what()).find("placement: all -> cpulist:0-3"), std::string::npos)
        << e.what();
  }
}

TEST_F(Across, IterationTimingThatDiffersIsNamed) {
  const store::RunRecord a = stored(run_on(1, "boot-a"));
  store::RunRecord b = stored(run_on(2, "boot-b"));
  b.plan["duration_s"] = 0.5;  // a --quick run against a default one
  b.plan["warmup_s"] = 0;
  const double duration_s = a.plan.at("duration_s").get<double>();
  try {
    compare_runs(b, a);
    FAIL() << "no error";
  } catch (const CompareError& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("duration_s: {:g} -> 0.5", duration_s)),
              std::string::npos)
        << e.what();
  }
}

TEST_F(Across, OneBootPerSideSaysSo) {
  const store::RunRecord a = stored(run_on(1, "boot-a"));
  const store::RunRecord b = stored(run_on(2, "boot-b", 1.1));
  const Table t = compare_runs(b, a);
  EXPECT_EQ(t.reference_boots, 1u);
  EXPECT_EQ(t.run_boots, 1u);
  const Cell& cell = t.rows[0].cells[0];
  EXPECT_EQ(cell.comparison.verdict, analysis::Verdict::kImprovement);
  EXPECT_NE(cell.comparison.note.find("1 boot per side: boot-to-boot variance not measured"),
            std::string::npos)
      << cell.comparison.note;
  EXPECT_FALSE(boot_level(cell));
  std::ostringstream out;
  report::print_compare_table(t, out);
  EXPECT_NE(out.str().find("boots: 1 behind r1000000, 1 behind r2000000\n"), std::string::npos)
      << out.str();
  // Said once for the case and variant, though both metrics are (I).
  const std::string note =
      "fork-all / baseline / r2000000: 1 boot per side: boot-to-boot variance not measured\n";
  const auto at = out.str().find(note);
  ASSERT_NE(at, std::string::npos) << out.str();
  EXPECT_EQ(out.str().find(note, at + 1), std::string::npos) << out.str();
}

// Two boots a side, two runs each (four runs on four boots): the variant is
// 6% faster on both of its boots.
TEST_F(Across, TwoBootsPerSideGetABootLevelVerdict) {
  std::vector<store::RunRecord> reference, variant;
  reference.push_back(stored(run_on(1, "boot-1")));
  reference.push_back(stored(run_on(2, "boot-2", 1.01)));
  variant.push_back(stored(run_on(3, "boot-3", 1.06)));
  variant.push_back(stored(run_on(4, "boot-4", 1.07)));
  const Table t = compare_runs(variant, reference);
  EXPECT_EQ(t.reference_boots, 2u);
  EXPECT_EQ(t.run_boots, 2u);
  EXPECT_EQ(t.baseline_label, "r1000000+1");
  EXPECT_EQ(t.columns, (std::vector<std::string>{"r3000000+1"}));
  const Cell& cell = t.rows[0].cells[0];
  EXPECT_EQ(cell.side.values.size(), 20u);  // both runs pooled
  EXPECT_EQ(t.rows[0].baseline.values.size(), 20u);
  ASSERT_TRUE(boot_level(cell));
  EXPECT_EQ(cell.by_boot->baseline_boots, 2u);
  EXPECT_EQ(cell.by_boot->variant_boots, 2u);
  EXPECT_NEAR(cell.by_boot->change_pct, 5.9, 0.6);
  EXPECT_EQ(cell.comparison.note.find("boot per side"), std::string::npos);

  std::ostringstream out;
  report::print_compare_table(t, out);
  EXPECT_NE(out.str().find("runs r3000000, r4000000 (altra-01.lab, 6.19.0-rc3) against runs "
                           "r1000000, r2000000"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("boots: 2 behind r1000000+1, 2 behind r3000000+1\n"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("by boot (2 vs 2)"), std::string::npos) << out.str();

  const nlohmann::json j = report::compare_json(t);
  EXPECT_EQ(j["boots"]["against"], 2);
  EXPECT_EQ(j["runs"].size(), 4u);
  const auto& by_boot = j["rows"][0]["variants"][0]["by_boot"];
  EXPECT_EQ(by_boot["baseline_boots"], 2);
  EXPECT_EQ(by_boot["test"], "welch-log-boot-medians");
  EXPECT_TRUE(by_boot["p_value"].is_number());
}

// A regression on one odd boot out of two: the pooled iterations say (R),
// the boots do not, and the gate judges the boots.
TEST_F(Across, OneOddBootCannotFailTheGate) {
  std::vector<store::RunRecord> reference, variant;
  reference.push_back(stored(run_on(1, "boot-1")));
  reference.push_back(stored(run_on(2, "boot-2", 1.002)));
  variant.push_back(stored(run_on(3, "boot-3", 0.999)));
  variant.push_back(stored(run_on(4, "boot-4", 0.90)));
  const Table t = compare_runs(variant, reference);
  const Cell& cell = t.rows[0].cells[0];
  EXPECT_EQ(cell.comparison.verdict, analysis::Verdict::kRegression);
  ASSERT_TRUE(boot_level(cell));
  EXPECT_NE(cell.by_boot->verdict, analysis::Verdict::kRegression);
  EXPECT_TRUE(gate_failures(t, {}).empty());
}

}  // namespace
}  // namespace schedrig::compare
