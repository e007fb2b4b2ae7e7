// print_runs_table and print_run_detail: what a person reads on the console.
#include <sstream>

#include <gtest/gtest.h>

#include "host/report/runs_text.h"
#include "tests/host/report/stored_runs.h"
#include "tests/host/report/text_lines.h"

namespace schedrig::report {
namespace {

using schedrig::testing::lines;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(ReportText, RunsTableHasOneLinePerRun) {
  auto runs = schedrig::testing::stored_runs();
  store::RunRecord other = runs[0];
  other.run_id = "a1b2c3d4-0000-4000-8000-000000000000";
  other.status = "running";
  other.iterations.resize(1);
  other.labels.clear();
  runs.push_back(other);

  std::ostringstream out;
  print_runs_table(runs, out);
  auto rows = lines(out.str());
  ASSERT_EQ(rows.size(), 3u) << out.str();
  EXPECT_TRUE(contains(rows[0], "RUN")) << rows[0];
  EXPECT_TRUE(contains(rows[0], "ITERATIONS")) << rows[0];
  const std::string& first = rows[1];
  EXPECT_EQ(first.substr(0, 10), "3f2a9c1e  ") << first;
  EXPECT_FALSE(contains(first, schedrig::testing::kRun)) << first;  // only 8 chars
  for (const char* want : {"2026-01-01T00:00:03Z", "altra-01", "6.19.0-rc3", " ok ", "3/3",
                           "fork-vs-features", "kernel=6.19-rc3,tag=nightly"}) {
    EXPECT_TRUE(contains(first, want)) << want << " in: " << first;
  }
  EXPECT_TRUE(contains(rows[2], "running")) << rows[2];
  EXPECT_TRUE(contains(rows[2], "1/3")) << rows[2];
  // Aligned: the plan column starts at the same offset on both lines.
  EXPECT_EQ(rows[1].find("fork-vs-features"), rows[2].find("fork-vs-features"));
}

// Agent ids, hostnames, labels and reasons come from the network: an ESC
// sequence or a CR/LF in one must reach the terminal as visible text.
TEST(ReportText, RemoteStringsArePrintedWithoutControlBytes) {
  auto runs = schedrig::testing::stored_runs();
  runs[0].agent_id = "bad\x1b]0;title\aid";
  runs[0].hostname = "host\r\nFAKE LINE";
  runs[0].labels = {{"tag", "a\x1b[2Jb"}};
  runs[0].reason = "gone\x9b";
  std::ostringstream table;
  print_runs_table(runs, table);
  std::ostringstream detail;
  print_run_detail(runs[0], detail);
  for (const std::string& text : {table.str(), detail.str()}) {
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
    EXPECT_EQ(text.find('\a'), std::string::npos) << text;
    EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  }
  EXPECT_TRUE(contains(table.str(), "bad\\e]0;title\\x07id")) << table.str();
  EXPECT_TRUE(contains(table.str(), "tag=a\\e[2Jb")) << table.str();
  EXPECT_TRUE(contains(detail.str(), "host\\r\\nFAKE LINE")) << detail.str();
  EXPECT_EQ(lines(table.str()).size(), 2u) << table.str();
}

TEST(ReportText, RunDetailShowsHeaderAndPrimaryMetricFormatted) {
  auto runs = schedrig::testing::stored_runs();
  std::ostringstream out;
  print_run_detail(runs.at(0), out);
  std::string text = out.str();
  for (const char* want :
       {schedrig::testing::kRun, "altra-01 (altra-01.lab)", "6.19.0-rc3", "160", "fork-vs-features",
        "kernel=6.19-rc3,tag=nightly", "ok (3/3 iterations)"}) {
    EXPECT_TRUE(contains(text, want)) << want << " in:\n" << text;
  }

  auto rows = lines(text);
  auto header = std::find_if(rows.begin(), rows.end(),
                             [](const std::string& l) { return l.rfind("CASE", 0) == 0; });
  ASSERT_NE(header, rows.end()) << text;
  ASSERT_EQ(rows.end() - header, 4) << text;  // header + three iterations
  const std::string& it1 = header[1];
  const std::string& it3 = header[3];
  EXPECT_TRUE(contains(it1, "127,553 ops/s")) << it1;
  EXPECT_TRUE(contains(it1, "bogo_ops_per_s")) << it1;
  EXPECT_TRUE(contains(header[2], "124,468 ops/s")) << header[2];  // 124467.5 rounds up
  EXPECT_TRUE(contains(it3, " 38,047 ops/s")) << it3;              // right-aligned value
  EXPECT_TRUE(contains(it3, "failed")) << it3;
  EXPECT_TRUE(contains(it3, "watchdog: overran duration by 2 s")) << it3;
  EXPECT_FALSE(contains(text, "stale_pick_rate")) << text;  // only the primary metric
  // Aligned: values end in the same column on every line.
  EXPECT_EQ(it1.find("ops/s"), it3.find("ops/s"));
  EXPECT_EQ(header->find("REASON"), it3.find("watchdog"));
}

TEST(ReportText, RunDetailSaysWhichIterationsWereDisturbed) {
  store::RunRecord run = schedrig::testing::stored_runs().at(0);
  run.iterations[1].disturbed = true;
  run.iterations[1].disturbed_reason = "other work: 12.5% CPU of other processes (> 5%)";
  std::ostringstream out;
  print_run_detail(run, out);
  bool found = false;
  for (const auto& row : lines(out.str())) {
    if (!contains(row, "ok (disturbed)")) continue;
    found = true;
    EXPECT_TRUE(contains(row, "other work: 12.5% CPU of other processes (> 5%)")) << row;
  }
  EXPECT_TRUE(found) << out.str();
}

TEST(ReportText, RunDetailWithoutIterationsOrReasons) {
  store::RunRecord run;
  run.run_id = "r1";
  run.agent_id = "box";
  run.status = "running";
  run.planned_iterations = 4;
  std::ostringstream out;
  print_run_detail(run, out);
  std::string text = out.str();
  EXPECT_TRUE(contains(text, "running (0/4 iterations)")) << text;
  EXPECT_FALSE(contains(text, "REASON")) << text;
  EXPECT_TRUE(contains(text, "CASE")) << text;
}

}  // namespace
}  // namespace schedrig::report
