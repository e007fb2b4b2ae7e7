// print_results_csv: header, one row per metric, RFC 4180 quoting.
#include <sstream>

#include <gtest/gtest.h>

#include "host/report/results_csv.h"
#include "tests/host/report/stored_runs.h"
#include "tests/host/report/text_lines.h"

namespace schedrig::report {
namespace {

using schedrig::testing::lines;

TEST(ReportCsv, OneRowPerMetric) {
  std::ostringstream out;
  print_results_csv(schedrig::testing::stored_runs(), out);
  auto rows = lines(out.str());
  ASSERT_EQ(rows.size(), 1u + 3 * 2);
  EXPECT_EQ(rows[0], "run_id,case,variant,iteration,status,metric,value,unit,direction");
  EXPECT_EQ(rows[1], std::string(schedrig::testing::kRun) +
                         ",fork-all,baseline,1,ok,bogo_ops_per_s,127553.25,ops/s,higher_is_better");
  EXPECT_EQ(rows[6],
            std::string(schedrig::testing::kRun) +
                ",fork-all,baseline,3,failed,stale_pick_rate,0.0369,ratio,lower_is_better");
}

TEST(ReportCsv, QuotesFieldsWithCommasQuotesAndNewlines) {
  store::RunRecord run;
  run.run_id = "r1";
  store::IterationRecord it;
  it.case_name = "kv,128 clients";
  it.variant = "say \"no\"";
  it.iteration = 2;
  it.status = "ok";
  it.metrics.push_back({"ops", 1.5, "ops/s\nper PU", "higher_is_better"});
  run.iterations.push_back(it);
  std::ostringstream out;
  print_results_csv({run}, out);
  EXPECT_EQ(out.str(),
            "run_id,case,variant,iteration,status,metric,value,unit,direction\n"
            "r1,\"kv,128 clients\",\"say \"\"no\"\"\",2,ok,ops,1.5,\"ops/s\nper PU\","
            "higher_is_better\n");
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field(""), "");
}

TEST(ReportCsv, IterationWithoutMetricsStillGetsARow) {
  store::RunRecord run;
  run.run_id = "r1";
  store::IterationRecord it;
  it.case_name = "fork-all";
  it.variant = "baseline";
  it.iteration = 1;
  it.status = "failed";
  run.iterations.push_back(it);
  std::ostringstream out;
  print_results_csv({run}, out);
  EXPECT_EQ(lines(out.str()).at(1), "r1,fork-all,baseline,1,failed,,,,");
}

}  // namespace
}  // namespace schedrig::report
