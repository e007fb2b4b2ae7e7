// Samples for people and programs: `results RUN --samples` as a table, JSON
// and CSV, and the live lines of `watch` (SampleLineWriter).
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "host/report/samples_report.h"
#include "tests/host/report/stored_runs.h"
#include "tests/host/report/text_lines.h"

namespace schedrig::report {
namespace {

using schedrig::testing::lines;
using schedrig::testing::words;
using schedrig::testing::Words;

using schedrig::testing::stored_samples;

TEST(SamplesReport, TableHasOneLinePerSampleWithRealValuesAndDashes) {
  std::ostringstream out;
  print_samples_table(stored_samples(), out);
  const auto rows = lines(out.str());
  ASSERT_EQ(rows.size(), 7u) << out.str();
  EXPECT_EQ(words(rows[0]), (Words{"TIME", "CASE", "VARIANT", "ITER", "OPS", "IDLE%", "RUNNABLE",
                                   "CTXT/S", "WAIT%", "NEWIDLE/S", "PSI%", "FLAGS"}));
  EXPECT_EQ(words(rows[1]), (Words{"2026-01-01T00:00:11.250Z", "fork-all", "baseline", "1", "1,000",
                                   "12.5", "130", "1,234,567", "41.5", "678", "7.75"}));
  // The second interval completed the starvation signature.
  EXPECT_EQ(words(rows[2]), (Words{"2026-01-01T00:00:12.250Z", "fork-all", "baseline", "1", "2,000",
                                   "13.5", "131", "1,234,568", "42.5", "679", "8.75", "STARVED"}));
  // Position 2 was sampled without schedstat or PSI: those columns are "-".
  EXPECT_EQ(words(rows[5]), (Words{"2026-01-01T00:00:31.250Z", "fork-all", "baseline", "3", "1,002",
                                   "32.5", "150", "1,234,587", "-", "-", "-"}));
  // Aligned: the numbers end where their headers end.
  EXPECT_EQ(rows[0].find("RUNNABLE") + 8, rows[1].find("130") + 3);
}

TEST(SamplesReport, EmptyIsJustTheHeader) {
  std::ostringstream out;
  print_samples_table({}, out);
  EXPECT_EQ(lines(out.str()).size(), 1u);
  EXPECT_EQ(samples_json({}).dump(), R"({"samples":[]})");
}

TEST(SamplesReport, JsonHasTheDesignedKeysAndPresentValuesOnly) {
  const nlohmann::json j = samples_json(stored_samples());
  ASSERT_EQ(j.at("samples").size(), 6u);
  const nlohmann::json& s = j["samples"][3];
  std::set<std::string> keys;
  for (const auto& [k, v] : s.items()) keys.insert(k);
  EXPECT_EQ(keys, (std::set<std::string>{"run_id", "case", "variant", "iteration", "position",
                                         "t_ns", "interval_s", "ops_so_far", "values", "starved",
                                         "starved_reason"}));
  EXPECT_EQ(s["run_id"], schedrig::testing::kRun);
  EXPECT_EQ(s["case"], "fork-all");
  EXPECT_EQ(s["iteration"], 2);
  EXPECT_EQ(s["position"], 1);
  EXPECT_EQ(s["t_ns"], schedrig::testing::kT0 + 22'250'000'000LL);
  EXPECT_EQ(s["ops_so_far"], 2001);
  EXPECT_EQ(s["starved"], true);
  EXPECT_EQ(s["starved_reason"], "crowd then idle: runnable 131 >= 128 PUs, then idle 85%");
  EXPECT_EQ(s["values"].size(), 16u);
  EXPECT_EQ(s["values"]["idle_pct"].get<double>(), 23.5);
  EXPECT_EQ(s["values"]["busy_pct_node1"].get<double>(), 79.5);
  EXPECT_EQ(s["values"]["runnable"].get<double>(), 141);
  EXPECT_EQ(s["values"]["psi_some_pct"].get<double>(), 18.75);
  EXPECT_EQ(s["values"]["load1"].get<double>(), 107.5);

  const nlohmann::json& sparse = j["samples"][4];
  EXPECT_EQ(sparse["values"].size(), 9u);
  EXPECT_FALSE(sparse["values"].contains("wait_share_pct"));
  EXPECT_FALSE(sparse["values"].contains("psi_some_pct"));
  EXPECT_EQ(sparse["starved"], false);
  EXPECT_EQ(sparse["starved_reason"], "");
}

TEST(SamplesReport, CsvHasAColumnPerValueAndEmptyFieldsForAbsentOnes) {
  std::ostringstream out;
  print_samples_csv(stored_samples(), out);
  const auto rows = lines(out.str());
  ASSERT_EQ(rows.size(), 7u);
  EXPECT_EQ(rows[0],
            "run_id,case,variant,iteration,position,t_ns,interval_s,ops_so_far,idle_pct,"
            "busy_pct_node0,busy_pct_node1,ctxt_per_s,intr_per_s,forks_per_s,runnable,blocked,"
            "wait_share_pct,newidle_lb_per_s,newidle_failed_pct,run_delay_ms_per_s,psi_some_pct,"
            "numa_pages_migrated_per_s,numa_miss_per_s,load1,starved,starved_reason");
  EXPECT_EQ(rows[1], std::string(schedrig::testing::kRun) +
                         ",fork-all,baseline,1,0,1767225611250000000,1,1000,12.5,80.25,90.5,"
                         "1234567,45678.5,2345.25,130,2,41.5,678,12.25,345.5,7.75,11,3.5,96.5,0,");
  EXPECT_EQ(rows[5], std::string(schedrig::testing::kRun) +
                         ",fork-all,baseline,3,2,1767225631250000000,1,1002,32.5,60.25,70.5,"
                         "1234587,45698.5,2365.25,150,2,,,,,,,,116.5,0,");
  EXPECT_NE(rows[2].find(R"(,1,"crowd then idle: runnable 131 >= 128 PUs, then idle 85%")"),
            std::string::npos)
      << rows[2];
}

TEST(SamplesReport, LiveLinesLineUpWithoutKnowingLaterRows) {
  const auto samples = stored_samples();
  const auto runs = schedrig::testing::stored_sampled_runs();
  std::ostringstream out;
  SampleLineWriter w(out, 3);
  w.header();
  w.sample(samples[0]);
  w.sample(samples[5]);
  w.iteration(runs[0].iterations[1]);
  w.iteration(runs[0].iterations[2]);
  const auto rows = lines(out.str());
  ASSERT_EQ(rows.size(), 5u) << out.str();
  EXPECT_EQ(words(rows[0]), (Words{"TIME", "POS", "CASE", "VARIANT", "ITER", "OPS", "IDLE%",
                                   "RUNNABLE", "CTXT/S", "WAIT%", "NEWIDLE/S", "PSI%", "FLAGS"}));
  EXPECT_EQ(words(rows[1]), (Words{"2026-01-01T00:00:11.250Z", "1/3", "fork-all", "baseline", "1",
                                   "1,000", "12.5", "130", "1,234,567", "41.5", "678", "7.75"}));
  EXPECT_EQ(words(rows[2]).back(), "STARVED");
  EXPECT_EQ(words(rows[2])[1], "3/3");
  for (const char* col : {"POS", "RUNNABLE", "PSI%"}) {
    const std::size_t end = rows[0].find(col) + std::string(col).size();
    EXPECT_EQ(rows[1][end - 1] != ' ', true) << col << "\n" << out.str();
    EXPECT_EQ(rows[1].size() > end ? rows[1][end] : ' ', ' ') << col << "\n" << out.str();
  }
  EXPECT_EQ(rows[3],
            "2026-01-01T00:00:25.000Z  [2/3] fork-all / baseline / iteration 2: 124,468 ops/s; "
            "1 starved interval");
  // Iteration 3's quiet check gave up (stored_runs.h): the line says so.
  EXPECT_EQ(rows[4].substr(26),
            "[3/3] fork-all / baseline / iteration 3: FAILED: watchdog: overran duration by 2 s "
            "(box not quiet after 3.5 s; ran anyway); 1 starved interval");
}

// An operator's plan names and an agent's reason reach the terminal escaped.
TEST(SamplesReport, LiveIterationLineEscapesRemoteStrings) {
  store::IterationRecord it = schedrig::testing::stored_sampled_runs()[0].iterations[2];
  it.case_name = "fork\x1b[2J";
  it.variant = "base\nline";
  it.reason = "died\x07";
  std::ostringstream out;
  SampleLineWriter(out, 3).iteration(it);
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find('\x07'), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("[3/3] fork\\e[2J / base\\nline / iteration 3: FAILED: died\\x07"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(lines(out.str()).size(), 1u);
}

TEST(SamplesReport, SampleValueFindsPresentValuesOnly) {
  const auto samples = stored_samples();
  EXPECT_EQ(sample_value(samples[0], "ctxt_per_s"), 1234567.0);
  EXPECT_EQ(sample_value(samples[0], "busy_pct_node1"), 90.5);
  EXPECT_EQ(sample_value(samples[4], "wait_share_pct"), std::nullopt);
  EXPECT_EQ(sample_value(samples[4], "no_such_value"), std::nullopt);
}

}  // namespace
}  // namespace schedrig::report
