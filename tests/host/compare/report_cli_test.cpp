// `schedrig report`, `schedrig trend` and `results --fingerprint` as a user
// runs them: exit codes, messages that name the run or the option, JSON.
#include <fstream>

#include <fmt/format.h>
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

// Three runs of agent altra-01 (the synthetic Hello's), 10000 -> 10000 -> 8000 ops/s.
std::string history_store(const TempDir& dir) {
  const std::string db = dir.file("schedrig.db");
  store::Store s(db);
  const char* ids[] = {kRunA, kRunB, kRunC};
  const double levels[] = {10000, 10000, 8000};
  for (unsigned n = 0; n < 3; ++n) {
    testing::SyntheticRun r;
    r.run_id = ids[n];
    r.instance = fmt::format("0b5e8f2a-1c2d-4e3f-8a9b-{:012x}", n + 1);
    r.kernel = n < 2 ? "6.18.0" : "6.19.0-rc1";
    r.ops = [level = levels[n]](const std::string&, const std::string&, unsigned i) {
      return level * (1 + 0.004 * testing::jitter(i));
    };
    testing::ingest(s, testing::synthetic_run(r));
  }
  return db;
}

TEST(ResultsFingerprint, PrintsTheStoredFingerprint) {
  TempDir dir;
  const std::string db = history_store(dir);
  const auto text = run_command(bin("schedrig") + " results aaaa --fingerprint --db " + db);
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("fingerprint of run " + std::string(kRunA)), std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("sched_features  PLACE_LAG RUN_TO_PARITY NI_RANDOM"),
            std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("thp             always"), std::string::npos) << text.output;
  const auto json = run_command(bin("schedrig") + " results aaaa --fingerprint --json --db " + db);
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const auto j = nlohmann::json::parse(json.output);
  EXPECT_EQ(j["run_id"], kRunA);
  EXPECT_EQ(j["fingerprint"]["kernel_release"], "6.18.0");
  EXPECT_EQ(j["fingerprint"]["smt"], "on");
  EXPECT_EQ(run_command(bin("schedrig") + " results --fingerprint --db " + db).exit_code, 2);
  EXPECT_EQ(run_command(bin("schedrig") + " results zzzz --fingerprint --db " + db).exit_code, 2);
}

TEST(TrendCli, OneRowPerRunWithTheChangeAgainstThePreviousOne) {
  TempDir dir;
  const std::string db = history_store(dir);
  const auto t =
      run_command(bin("schedrig") + " trend --agent altra-01 --case fork-all --db " + db);
  ASSERT_EQ(t.exit_code, 0) << t.output;
  EXPECT_NE(t.output.find(
                "trend of fork-all ops_per_s (ops/s, higher is better), 3 points by run:\nRUN "),
            std::string::npos)
      << t.output;
  EXPECT_NE(t.output.find("cccccccc"), std::string::npos);
  EXPECT_NE(t.output.find("(R)"), std::string::npos) << t.output;
  const auto j = run_command(bin("schedrig") +
                             " trend --agent altra-01 --case fork-all --by-kernel "
                             "--json --db " +
                             db);
  ASSERT_EQ(j.exit_code, 0) << j.output;
  const auto trend = nlohmann::json::parse(j.output);
  ASSERT_EQ(trend["points"].size(), 2u);
  EXPECT_EQ(trend["points"][0]["label"], "6.18.0");
  EXPECT_EQ(trend["points"][0]["n"], 20);
  EXPECT_EQ(trend["points"][1]["vs_previous"]["verdict"], "regression");
  EXPECT_NEAR(trend["points"][1]["vs_previous"]["change_pct"].get<double>(), -20, 1);
  EXPECT_TRUE(trend["points"][0]["vs_previous"].is_null());
}

TEST(TrendCli, BadInputExits2NamingIt) {
  TempDir dir;
  const std::string db = history_store(dir);
  const auto no_agent =
      run_command(bin("schedrig") + " trend --agent nobody --case fork-all --db " + db);
  EXPECT_EQ(no_agent.exit_code, 2);
  EXPECT_NE(no_agent.output.find("agent 'nobody' has no runs"), std::string::npos)
      << no_agent.output;
  const auto metric = run_command(bin("schedrig") +
                                  " trend --agent altra-01 --case fork-all "
                                  "--metric nope --db " +
                                  db);
  EXPECT_EQ(metric.exit_code, 2);
  EXPECT_NE(metric.output.find("metrics: ops_per_s, wakeup_p99_us"), std::string::npos)
      << metric.output;
  const auto since = run_command(bin("schedrig") +
                                 " trend --agent altra-01 --case fork-all "
                                 "--since yesterday --db " +
                                 db);
  EXPECT_EQ(since.exit_code, 2);
  EXPECT_NE(since.output.find("--since 'yesterday'"), std::string::npos) << since.output;
  for (const char* bad : {"2026-02-30", "2026- 1- 1", "2026-12-03T99:99:99Z", "+202-01-01"}) {
    const auto r =
        run_command(bin("schedrig") + " trend --agent altra-01 --case fork-all --since '" + bad +
                    "' --db " + db);
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.output;
  }
  const auto past = run_command(bin("schedrig") +
                                " trend --agent altra-01 --case fork-all "
                                "--since 1000-01-01 --json --db " +
                                db);
  ASSERT_EQ(past.exit_code, 0) << past.output;
  EXPECT_EQ(nlohmann::json::parse(past.output)["points"].size(), 3u);
  const auto variant = run_command(bin("schedrig") +
                                   " trend --agent altra-01 --case fork-all "
                                   "--variant nope --db " +
                                   db);
  EXPECT_EQ(variant.exit_code, 2);
  EXPECT_NE(variant.output.find("no variant 'nope'"), std::string::npos) << variant.output;
  const auto future = run_command(bin("schedrig") +
                                  " trend --agent altra-01 --case fork-all "
                                  "--since 2999-01-01 --db " +
                                  db);
  EXPECT_EQ(future.exit_code, 2) << future.output;
}

TEST(ReportCli, WritesOnePageAndRefusesBadInput) {
  TempDir dir;
  const std::string db = history_store(dir);
  const std::string html = dir.file("r.html");
  const auto ok = run_command(bin("schedrig") +
                              " report cccc --against aaaa --against bbbb "
                              "--html " +
                              html + " --db " + db);
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("id=\"verdict-table\""), std::string::npos);
  EXPECT_NE(page.find("fingerprint field"), std::string::npos);
  EXPECT_NE(page.find("kernel_release"), std::string::npos);  // differs: 6.18.0 vs 6.19.0-rc1
  EXPECT_NE(page.find("Made by: "), std::string::npos);
  const auto no_html = run_command(bin("schedrig") + " report aaaa --db " + db);
  EXPECT_EQ(no_html.exit_code, 2);
  EXPECT_NE(no_html.output.find("--html F is required"), std::string::npos) << no_html.output;
  const auto none = run_command(bin("schedrig") + " report --html " + html + " --db " + db);
  EXPECT_EQ(none.exit_code, 2);
  const auto unknown = run_command(bin("schedrig") + " report zzzz --html " + html + " --db " + db);
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  const auto not_a_night =
      run_command(bin("schedrig") + " report --nightly " + dir.path() + " --db " + db);
  EXPECT_EQ(not_a_night.exit_code, 2);
  EXPECT_NE(not_a_night.output.find("is not a finished night's OUT"), std::string::npos)
      << not_a_night.output;
  EXPECT_NE(not_a_night.output.find("summary.json"), std::string::npos) << not_a_night.output;
  const auto to_stdout = run_command(bin("schedrig") + " report aaaa --html - --db " + db);
  EXPECT_EQ(to_stdout.exit_code, 0) << to_stdout.output;
  EXPECT_EQ(to_stdout.output.rfind("<!DOCTYPE html>", 0), 0u);
  const auto unwritable = run_command(bin("schedrig") + " report aaaa --html " + dir.path() +
                                      "/no/such/dir/r.html --db " + db);
  EXPECT_EQ(unwritable.exit_code, 2);
  EXPECT_NE(unwritable.output.find("cannot write"), std::string::npos) << unwritable.output;
}

}  // namespace
}  // namespace schedrig
