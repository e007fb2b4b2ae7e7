// The console table of a lab-like run, three cases with the workloads' real
// metric names and three variants with realistic names: which rows show by
// default, that every line fits in 120 columns, and that a note is said once
// per case and variant.
#include <sstream>

#include <gtest/gtest.h>

#include "host/compare/compare_table.h"
#include "host/report/compare_text.h"
#include "tests/host/compare/stored_runs.h"

namespace schedrig::compare {
namespace {

using testing::jitter;
using testing::SyntheticMetric;
using testing::SyntheticRun;

// The latency percentiles the workloads emit (agent/workloads/workload_metrics.cpp).
void add_percentiles(std::vector<SyntheticMetric>& m, const std::string& name, double scale) {
  for (const char* q : {"p50", "p90", "p99", "p99_9", "max"}) {
    m.push_back({fmt::format("{}_{}_us", name, q), "us", false, scale});
  }
}

// The metrics of agent/workloads' fork, wakeup and kv cases, in their order.
std::vector<SyntheticMetric> workload_metrics(const std::string& c) {
  std::vector<SyntheticMetric> m;
  if (c == "fork-all") {
    m = {{"bogo_ops_per_s", "ops/s", true, 12.6},
         {"bogo_ops", "ops", true, 25.2},
         {"fork_failures", "count", false, 1e-3},
         {"duration_s", "s", false, 2e-4}};
  } else if (c == "wakeup") {
    m = {{"requests_per_s", "requests/s", true, 31.4}, {"requests", "requests", true, 62.8}};
    m.push_back({"duration_s", "s", false, 2e-4});
    add_percentiles(m, "wakeup_latency", 12);
    add_percentiles(m, "request_latency", 37);
    m.push_back({"message_sched_delay_us", "us", false, 3});
    m.push_back({"worker_sched_delay_us", "us", false, 4});
  } else {
    m = {{"ops_per_s", "ops/s", true, 48}, {"ops", "ops", true, 96}, {"reads", "ops", true, 57}};
    m.push_back({"writes", "ops", true, 38});
    m.push_back({"duration_s", "s", false, 2e-4});
    add_percentiles(m, "op_latency", 250);
    m.push_back({"runqueue_wait_share", "fraction", false, 1e-4});
  }
  return m;
}

// The seed's cliff in "no-ni-random" of fork-all; "short-migration" has one
// ok iteration in wakeup (the rest failed); "autogroup-off" is 2% slower.
SyntheticRun lab_like() {
  SyntheticRun s;
  s.run_id = testing::run_id(5);
  s.cases = {"fork-all", "wakeup", "kv60"};
  s.variants = {"baseline", "autogroup-off", "no-ni-random", "short-migration"};
  s.case_metrics = workload_metrics;
  s.ops = [](const std::string& c, const std::string& v, unsigned i) {
    static const double seed[] = {127553, 124467, 38047, 37983,  38100,
                                  38200,  38315,  38150, 126802, 125893};
    if (c == "fork-all" && v == "no-ni-random") return seed[(i - 1) % 10] / 12.6;
    const double base = 10000 * (1 + 0.01 * jitter(i, static_cast<unsigned>(v.size())));
    return v == "autogroup-off" ? base * 0.98 : base;
  };
  for (unsigned i = 2; i <= 10; ++i) s.failed.push_back({"short-migration", i});
  return s;
}

class Width : public testing::StoredRuns {};

TEST_F(Width, ThreeVariantsFitIn120ColumnsAndNotesAreSaidOnce) {
  const Table t = compare_variants(stored(lab_like()));
  std::ostringstream out;
  report::print_compare_table(t, out);
  const std::string s = out.str();
  std::istringstream lines(s);
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_LE(line.size(), 120u) << line;
  }
  EXPECT_GT(count, 40u) << s;
  // Default rows: fork's primary, wakeup's primary and four p50/p99, kv's
  // primary and two: 9 rows, each a baseline line and three variant lines;
  // 3 + 10 + 8 others hidden.
  std::size_t shown = 0;
  for (const auto& row : t.rows) shown += report::shown_by_default(row) ? 1 : 0;
  EXPECT_EQ(shown, 9u);
  for (const char* hidden : {"bogo_ops ", "duration_s", "wakeup_latency_p99_9_us", "requests ",
                             "op_latency_max_us", "runqueue_wait_share"}) {
    EXPECT_EQ(s.find(std::string("  ") + hidden), std::string::npos) << hidden << "\n" << s;
  }
  for (const char* present :
       {"bogo_ops_per_s", "wakeup_latency_p50_us", "request_latency_p99_us", "op_latency_p99_us"}) {
    EXPECT_NE(s.find(present), std::string::npos) << present;
  }
  EXPECT_NE(s.find("(21 more metric rows: --all-metrics shows them"), std::string::npos) << s;
  // The seed's cliff: (R), its words once in the notes.
  const Row& fork = t.rows[0];
  EXPECT_EQ(fork.metric, "bogo_ops_per_s");
  EXPECT_EQ(fork.cells[1].comparison.verdict, analysis::Verdict::kRegression);
  // 124,467 is below this baseline's minimum too: 7 of 10 beyond it.
  const std::string cliff =
      "fork-all / no-ni-random / bogo_ops_per_s: cliff: 7 of 10 iterations at ~38.1k (-69.7%)";
  ASSERT_NE(s.find(cliff), std::string::npos) << s;
  EXPECT_EQ(s.find(cliff, s.find(cliff) + 1), std::string::npos) << s;
  // One ok iteration: the same remark for all five wakeup rows, said once.
  const std::string few = "wakeup / short-migration: fewer than 2 iterations (n=10 vs 1)";
  ASSERT_NE(s.find(few), std::string::npos) << s;
  EXPECT_EQ(s.find(few, s.find(few) + 1), std::string::npos) << s;
  EXPECT_EQ(s.find("wakeup / short-migration / "), std::string::npos) << s;
}

// Every row (the longer names may widen the table past 120 columns).
TEST_F(Width, AllMetricsShowsEveryRow) {
  const Table t = compare_variants(stored(lab_like()));
  std::ostringstream out;
  report::print_compare_table(t, out, {.all_metrics = true});
  EXPECT_NE(out.str().find("  message_sched_delay_us"), std::string::npos);
  EXPECT_NE(out.str().find("wakeup_latency_p99_9_us"), std::string::npos);
  EXPECT_EQ(out.str().find("more metric rows"), std::string::npos);
}

TEST(ShownByDefault, PrimaryAndP50P99Latencies) {
  Row row;
  for (const auto& [name, shown] :
       std::vector<std::pair<std::string, bool>>{{"wakeup_latency_p99_us", true},
                                                 {"op_latency_p50_us", true},
                                                 {"wakeup_latency_p99_9_us", false},
                                                 {"op_latency_p90_us", false},
                                                 {"children_node0", false},
                                                 {"bogo_ops", false},
                                                 {"requests", false}}) {
    row.metric = name;
    EXPECT_EQ(report::shown_by_default(row), shown) << name;
  }
  row.metric = "bogo_ops";
  row.primary = true;
  EXPECT_TRUE(report::shown_by_default(row));
}

}  // namespace
}  // namespace schedrig::compare
