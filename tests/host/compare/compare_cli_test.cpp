// `schedrig compare` and `schedrig analyze` as a user runs them: exit codes,
// errors that name the line or the run, JSON shapes.
#include <sys/stat.h>

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/host/compare/synthetic_run.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::bin;
using testing::run_command;
using testing::TempDir;

constexpr const char* kRunA = "aaaaaaaa-1111-4111-8111-000000000001";
constexpr const char* kRunB = "bbbbbbbb-2222-4222-8222-000000000002";
constexpr const char* kRunC = "cccccccc-3333-4333-8333-000000000003";

// A store with run A (baseline, slower: -5%, same) and run B (kernel
// 6.19.0-rc4, everything 10% faster than A).
std::string make_store(const TempDir& dir) {
  const std::string db = dir.file("schedrig.db");
  store::Store s(db);
  auto [a, b] = testing::regression_runs(kRunA, kRunB);
  testing::ingest(s, testing::synthetic_run(a));
  b.kernel = "6.19.0-rc4";
  b.ops = [ops = a.ops](const std::string& c, const std::string& v, unsigned i) {
    return ops(c, v, i) * 1.1;
  };
  testing::ingest(s, testing::synthetic_run(b));
  return db;
}

TEST(CompareCli, HelpNamesTheOptions) {
  const auto c = run_command(bin("schedrig") + " compare --help");
  EXPECT_EQ(c.exit_code, 0) << c.output;
  for (const char* flag :
       {"--baseline", "--against", "--method", "--threshold", "--fail-on", "--metric",
        "--all-metrics", "--disturbed", "--force", "--json", "--csv", "--db"}) {
    EXPECT_NE(c.output.find(flag), std::string::npos) << flag;
  }
  const auto a = run_command(bin("schedrig") + " analyze --help");
  EXPECT_EQ(a.exit_code, 0) << a.output;
  EXPECT_NE(a.output.find("--lower-is-better"), std::string::npos);
  EXPECT_NE(a.output.find("--fail-on"), std::string::npos);
  // The same gate options everywhere (host/cli/gate_options.h).
  for (const char* cmd : {" lab --help", " run --help"}) {
    const auto h = run_command(bin("schedrig") + cmd);
    EXPECT_EQ(h.exit_code, 0) << h.output;
    for (const char* flag : {"--fail-on", "--metric", "--all-metrics", "--threshold"}) {
      EXPECT_NE(h.output.find(flag), std::string::npos) << cmd << " " << flag;
    }
  }
}

TEST(CompareCli, TableAndFailOnRegression) {
  TempDir dir;
  const std::string db = make_store(dir);
  const auto plain = run_command(bin("schedrig") + " compare aaaa --db " + db);
  EXPECT_EQ(plain.exit_code, 0) << plain.output;
  // "slower" has its own jitter (salt 1): its median is 5.07% below the baseline's.
  EXPECT_NE(plain.output.find("-5.07% (R)"), std::string::npos) << plain.output;
  EXPECT_NE(plain.output.find("(I) improvement, (R) regression"), std::string::npos);

  const auto fail = run_command(bin("schedrig") + " compare aaaa --fail-on regression --db " + db);
  EXPECT_EQ(fail.exit_code, 1) << fail.output;
  // Without the regressing variant there is nothing to fail on.
  const auto against = run_command(bin("schedrig") + " compare " + kRunB + " --against " + kRunA +
                                   " --fail-on regression --db " + db);
  EXPECT_EQ(against.exit_code, 0) << against.output;
  EXPECT_NE(against.output.find("kernel_release: 6.19.0-rc3 -> 6.19.0-rc4"), std::string::npos)
      << against.output;
  EXPECT_NE(against.output.find("+10.00% (I)"), std::string::npos) << against.output;
}

// The gate judges each case's primary metric (ops_per_s); the latency row of
// "slower" is (R) too but fails only when asked for; one line per failure.
TEST(CompareCli, GateExitCodesWithMetricAndThreshold) {
  TempDir dir;
  const std::string db = make_store(dir);
  const std::string compare = bin("schedrig") + " compare aaaa --db " + db;
  const auto primary = run_command(compare + " --fail-on regression");
  EXPECT_EQ(primary.exit_code, 1) << primary.output;
  EXPECT_NE(primary.output.find("\ngate: fork-all/slower ops_per_s -5.1% (R) [no threshold]\n"),
            std::string::npos)
      << primary.output;
  EXPECT_EQ(primary.output.find("gate: fork-all/slower wakeup_p99_us"), std::string::npos);
  const auto all = run_command(compare + " --fail-on regression --all-metrics");
  EXPECT_EQ(all.exit_code, 1) << all.output;
  EXPECT_NE(all.output.find("gate: fork-all/slower wakeup_p99_us +5."), std::string::npos)
      << all.output;
  const auto metric = run_command(compare + " --fail-on regression --metric wakeup_p99_us");
  EXPECT_EQ(metric.exit_code, 1) << metric.output;
  EXPECT_EQ(metric.output.find("gate: fork-all/slower ops_per_s"), std::string::npos);
  const auto above = run_command(compare + " --fail-on regression --threshold 6");
  EXPECT_EQ(above.exit_code, 0) << above.output;
  EXPECT_EQ(above.output.find("gate:"), std::string::npos) << above.output;
  const auto below = run_command(compare + " --fail-on regression --threshold 5");
  EXPECT_EQ(below.exit_code, 1) << below.output;
  EXPECT_NE(below.output.find("[threshold 5%]"), std::string::npos) << below.output;
  const auto unknown = run_command(compare + " --fail-on regression --metric nope");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("--metric nope: no such metric"), std::string::npos)
      << unknown.output;
}

// Run C: A's "fork-all" with other parameters, cpulist and PU count.
TEST(CompareCli, AgainstRefusesCasesThatDifferUnlessForced) {
  TempDir dir;
  const std::string db = make_store(dir);
  {
    store::Store s(db);
    auto [a, c] = testing::regression_runs(kRunA, kRunC);
    c.instance = "0c5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5c";
    c.params = {{"workers", "8"}};
    c.pus = 8;
    testing::ingest(s, testing::synthetic_run(c));
  }
  const auto refused = run_command(bin("schedrig") + " compare cccc --against aaaa --db " + db);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("case 'fork-all' (aaaaaaaa -> cccccccc): params.workers: - -> 8, "
                                "PUs: 160 -> 8"),
            std::string::npos)
      << refused.output;
  const auto forced =
      run_command(bin("schedrig") + " compare cccc --against aaaa --force --db " + db);
  EXPECT_EQ(forced.exit_code, 0) << forced.output;
  EXPECT_NE(forced.output.find("--force: paired cases whose definitions differ:"),
            std::string::npos)
      << forced.output;
  EXPECT_NE(forced.output.find("  pus: 160 -> 8\n"), std::string::npos) << forced.output;
}

// Several runs a side are pooled: --against repeatable or comma-separated;
// a run named twice is refused (its iterations would count twice).
TEST(CompareCli, SeveralRunsASide) {
  TempDir dir;
  const std::string db = make_store(dir);
  {
    store::Store s(db);
    auto [a, c] = testing::regression_runs(kRunA, kRunC);  // C: another run like B
    c.instance = "0c5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5c";
    testing::ingest(s, testing::synthetic_run(c));
  }
  const auto pooled = run_command(bin("schedrig") + " compare bbbb --against aaaa --against cccc " +
                                  "--json --db " + db);
  ASSERT_EQ(pooled.exit_code, 0) << pooled.output;
  const auto j = nlohmann::json::parse(pooled.output);
  EXPECT_EQ(j["runs"].size(), 3u);
  EXPECT_EQ(j["baseline"], "aaaaaaaa+1");
  EXPECT_EQ(j["rows"][0]["baseline"]["n"], 20);
  const auto comma =
      run_command(bin("schedrig") + " compare bbbb --against aaaa,cccc --json --db " + db);
  ASSERT_EQ(comma.exit_code, 0) << comma.output;
  EXPECT_EQ(nlohmann::json::parse(comma.output)["runs"].size(), 3u);
  const auto alone = run_command(bin("schedrig") + " compare aaaa bbbb --db " + db);
  EXPECT_EQ(alone.exit_code, 2) << alone.output;
  EXPECT_NE(alone.output.find("several runs need --against"), std::string::npos) << alone.output;
  for (const char* twice : {" compare bbbb --against aaaa --against bbbb",
                            " compare bbbb bbbb "
                            "--against aaaa"}) {
    const auto refused = run_command(bin("schedrig") + twice + " --db " + db);
    EXPECT_EQ(refused.exit_code, 2) << twice << ": " << refused.output;
    EXPECT_NE(refused.output.find("is named more than once (each run counts once)"),
              std::string::npos)
        << refused.output;
  }
}

// "slower" ran its first four iterations on a busy box: left out by default.
TEST(CompareCli, DisturbedIterationsAreLeftOutByDefault) {
  TempDir dir;
  const std::string db = dir.file("schedrig.db");
  {
    store::Store s(db);
    auto [a, b] = testing::regression_runs(kRunA, kRunB);
    a.disturbed = {{"slower", 1}, {"slower", 2}, {"slower", 3}, {"slower", 4}};
    testing::ingest(s, testing::synthetic_run(a));
  }
  const auto plain = run_command(bin("schedrig") + " compare aaaa --db " + db);
  EXPECT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_NE(plain.output.find("run aaaaaaaa: 4 disturbed iterations left out (--disturbed include "
                              "to count them)"),
            std::string::npos)
      << plain.output;
  const auto json = [&](const std::string& policy) {
    const auto c =
        run_command(bin("schedrig") + " compare aaaa --json --disturbed " + policy + " --db " + db);
    EXPECT_EQ(c.exit_code, 0) << c.output;
    return nlohmann::json::parse(c.output);
  };
  EXPECT_EQ(json("exclude")["rows"][0]["variants"][0]["n"], 6);
  EXPECT_EQ(json("include")["rows"][0]["variants"][0]["n"], 10);
  EXPECT_EQ(json("only")["rows"][0]["variants"][0]["n"], 4);
  EXPECT_EQ(json("only")["disturbed"], "only");
  EXPECT_EQ(run_command(bin("schedrig") + " compare aaaa --disturbed some --db " + db).exit_code,
            2);
}

TEST(CompareCli, JsonAndCsv) {
  TempDir dir;
  const std::string db = make_store(dir);
  const auto json = run_command(bin("schedrig") + " compare bbbb --against aaaa --json --db " + db);
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const auto j = nlohmann::json::parse(json.output);
  EXPECT_EQ(j["run"], kRunB);
  EXPECT_EQ(j["against"], kRunA);
  ASSERT_EQ(j["fingerprint_differences"].size(), 1u);
  EXPECT_EQ(j["fingerprint_differences"][0]["field"], "kernel_release");
  EXPECT_EQ(j["rows"].size(), 6u);  // 3 variants x 2 metrics
  const auto csv = run_command(bin("schedrig") + " compare aaaa --csv --method mwu --db " + db);
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  EXPECT_EQ(csv.output.rfind("case,variant,metric", 0), 0u) << csv.output;
  EXPECT_NE(csv.output.find(",mann-whitney,"), std::string::npos);
}

TEST(CompareCli, UsageErrorsExit2AndNameTheProblem) {
  TempDir dir;
  const std::string db = make_store(dir);
  const auto unknown = run_command(bin("schedrig") + " compare feedbeef --db " + db);
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("no run matches 'feedbeef'"), std::string::npos) << unknown.output;
  const auto against = run_command(bin("schedrig") + " compare aaaa --against cafe --db " + db);
  EXPECT_EQ(against.exit_code, 2) << against.output;
  EXPECT_NE(against.output.find("'cafe'"), std::string::npos) << against.output;
  const auto variant = run_command(bin("schedrig") + " compare aaaa --baseline nope --db " + db);
  EXPECT_EQ(variant.exit_code, 2) << variant.output;
  EXPECT_NE(variant.output.find("no variant 'nope'"), std::string::npos) << variant.output;
  EXPECT_EQ(run_command(bin("schedrig") + " compare aaaa --method t-test --db " + db).exit_code, 2);
  EXPECT_EQ(run_command(bin("schedrig") + " compare aaaa --fail-on anything --db " + db).exit_code,
            2);
  EXPECT_EQ(run_command(bin("schedrig") + " compare aaaa --json --csv --db " + db).exit_code, 2);
  EXPECT_EQ(run_command(bin("schedrig") + " compare").exit_code, 2);
}

TEST(AnalyzeCli, JsonHasTheDocumentedShape) {
  TempDir dir;
  const std::string csv = dir.file("runs.csv");
  std::ofstream(csv) << "variant,iteration,value\n"
                        "baseline,1,127553\nbaseline,2,124467\nbaseline,3,38047\n"
                        "baseline,4,38120\nbaseline,5,38315\nbaseline,6,37983\n"
                        "baseline,7,38210\nbaseline,8,38150\nbaseline,9,126802\n"
                        "baseline,10,125893\n"
                        "fixed,1,126100\nfixed,2,125400\nfixed,3,127000\n";
  const auto r = run_command(bin("schedrig") + " analyze " + csv + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["method"], "auto");
  EXPECT_EQ(j["lower_is_better"], false);
  ASSERT_EQ(j["variants"].size(), 2u);
  const auto& base = j["variants"][0];
  for (const char* key : {"name", "n", "median", "mean", "min", "max", "cov_pct", "bimodal",
                          "drift", "modes", "flips"}) {
    EXPECT_TRUE(base.contains(key)) << key;
  }
  EXPECT_EQ(base["name"], "baseline");
  EXPECT_EQ(base["bimodal"], true);
  EXPECT_EQ(base["flips"], 2);
  EXPECT_EQ(base["modes"][0]["count"], 6);
  EXPECT_EQ(base["modes"][0]["iterations"], nlohmann::json({3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(base["drift"]["present"], false);
  EXPECT_TRUE(base["drift"].contains("tau"));
  EXPECT_TRUE(base["drift"].contains("change_pct"));
  ASSERT_EQ(j["comparisons"].size(), 1u);
  const auto& c = j["comparisons"][0];
  for (const char* key :
       {"variant", "change_pct", "ci95_pct", "p_value", "test", "parametric", "verdict", "note"}) {
    EXPECT_TRUE(c.contains(key)) << key;
  }
  EXPECT_EQ(c["variant"], "fixed");
  EXPECT_EQ(c["test"], "welch-log");
  EXPECT_EQ(c["parametric"], true);
  EXPECT_EQ(c["ci95_pct"].size(), 2u);
  EXPECT_NE(c["note"].get<std::string>().find("baseline bimodal (2 flips)"), std::string::npos);

  const auto text = run_command(bin("schedrig") + " analyze " + csv);
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.output.find("bimodal: 6 of 10 iterations at ~38.1k (CoV 0.3%), 4 at ~126k (CoV "
                             "1.1%); 2 flips"),
            std::string::npos)
      << text.output;
}

TEST(AnalyzeCli, BadCsvExits2NamingTheLine) {
  TempDir dir;
  std::ofstream(dir.file("bad.csv")) << "variant,iteration,value\nbaseline,1,100\nbaseline,2,abc\n";
  const auto r = run_command(bin("schedrig") + " analyze " + dir.file("bad.csv"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(dir.file("bad.csv") + ":3: value 'abc' is not a number"),
            std::string::npos)
      << r.output;
  std::ofstream(dir.file("header.csv")) << "run,value\n1,2\n";
  const auto h = run_command(bin("schedrig") + " analyze " + dir.file("header.csv"));
  EXPECT_EQ(h.exit_code, 2) << h.output;
  EXPECT_NE(h.output.find("header.csv:1: the header must be"), std::string::npos) << h.output;
  EXPECT_EQ(run_command(bin("schedrig") + " analyze /nonexistent.csv").exit_code, 2);
}

// A FIFO or a directory as the CSV: exit 2 at once, saying what it is
// (`timeout` bounds the run should opening the FIFO block again).
TEST(AnalyzeCli, AFifoOrDirectoryExits2AtOnce) {
  TempDir dir;
  const std::string fifo = dir.file("fifo.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto f = run_command("timeout 20 " + bin("schedrig") + " analyze " + fifo);
  EXPECT_EQ(f.exit_code, 2) << f.output;
  EXPECT_NE(f.output.find(fifo + ": not a regular file"), std::string::npos) << f.output;
  const auto d = run_command(bin("schedrig") + " analyze " + dir.path());
  EXPECT_EQ(d.exit_code, 2) << d.output;
  EXPECT_NE(d.output.find("is a directory"), std::string::npos) << d.output;
}

TEST(AnalyzeCli, LowerIsBetterTurnsTheVerdict) {
  TempDir dir;
  std::ofstream(dir.file("lat.csv")) << "variant,iteration,value\n"
                                        "baseline,1,100\nbaseline,2,101\nbaseline,3,99\n"
                                        "baseline,4,100.5\nbaseline,5,99.5\n"
                                        "patched,1,90\npatched,2,91\npatched,3,89\n"
                                        "patched,4,90.5\npatched,5,89.5\n";
  const auto higher = run_command(bin("schedrig") + " analyze " + dir.file("lat.csv") + " --json");
  EXPECT_EQ(nlohmann::json::parse(higher.output)["comparisons"][0]["verdict"], "regression");
  const auto lower = run_command(bin("schedrig") + " analyze " + dir.file("lat.csv") +
                                 " --lower-is-better --json");
  const auto j = nlohmann::json::parse(lower.output);
  EXPECT_EQ(j["lower_is_better"], true);
  EXPECT_EQ(j["comparisons"][0]["verdict"], "improvement");
  EXPECT_EQ(j["comparisons"][0]["test"], "mann-whitney");
  EXPECT_NEAR(j["comparisons"][0]["p_value"].get<double>(), 2.0 / 252, 1e-12);
}

// analyze --fail-on: the file's one metric; --threshold as for compare.
TEST(AnalyzeCli, FailOnRegression) {
  TempDir dir;
  std::ofstream(dir.file("ops.csv")) << "variant,iteration,value\n"
                                        "baseline,1,100\nbaseline,2,101\nbaseline,3,99\n"
                                        "baseline,4,100.5\nbaseline,5,99.5\n"
                                        "patched,1,90\npatched,2,91\npatched,3,89\n"
                                        "patched,4,90.5\npatched,5,89.5\n";
  const std::string analyze = bin("schedrig") + " analyze " + dir.file("ops.csv");
  const auto fail = run_command(analyze + " --fail-on regression");
  EXPECT_EQ(fail.exit_code, 1) << fail.output;
  EXPECT_NE(fail.output.find("\ngate: ops.csv/patched value -10.0% (R) [no threshold]\n"),
            std::string::npos)
      << fail.output;
  EXPECT_EQ(run_command(analyze + " --fail-on regression --threshold 11").exit_code, 0);
  EXPECT_EQ(run_command(analyze + " --fail-on regression --lower-is-better").exit_code, 0);
  EXPECT_EQ(run_command(analyze).exit_code, 0);
}

}  // namespace
}  // namespace schedrig
