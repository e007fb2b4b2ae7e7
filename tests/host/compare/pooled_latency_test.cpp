// Pooled latency percentiles of a comparison from histograms stored in a
// real store: the merge of the kept iterations, by variant and across runs.
#include "host/compare/pooled_latency.h"

#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "common/latency_buckets.h"
#include "host/report/compare_json.h"
#include "host/report/compare_text.h"
#include "tests/host/compare/synthetic_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::compare {
namespace {

using testing::SyntheticRun;
namespace lb = latency_buckets;

constexpr const char* kRunA = "aaaaaaaa-1111-4111-8111-000000000001";
constexpr const char* kRunB = "bbbbbbbb-2222-4222-8222-000000000002";

double mid_us(std::uint64_t ns) {
  const std::size_t i = lb::index_of(ns);
  return (static_cast<double>(lb::lower_bound_ns(i)) +
          static_cast<double>(lb::width_ns(i) - 1) / 2.0) /
         1000.0;
}

// Two variants; each iteration has 99 latencies at 10 us and one at 1 ms,
// except the "tail" variant's iteration 4, which has 20 at 1 ms.
SyntheticRun latency_run(const std::string& run_id) {
  SyntheticRun s;
  s.run_id = run_id;
  s.iterations = 5;
  s.variants = {"baseline", "tail"};
  s.ops = [](const std::string&, const std::string&, unsigned) { return 1000.0; };
  s.latency_ns = [](const std::string&, const std::string& v,
                    unsigned i) -> std::vector<std::pair<std::uint64_t, unsigned long long>> {
    if (v == "tail" && i == 4) return {{10'000, 80}, {1'000'000, 20}};
    return {{10'000, 99}, {1'000'000, 1}};
  };
  return s;
}

class PooledLatency : public ::testing::Test {
 protected:
  std::vector<store::RunRecord> stored(const SyntheticRun& s) {
    store::Store db(dir_.file("schedrig.db"));
    testing::ingest(db, testing::synthetic_run(s));
    return db.runs(s.run_id, {.sample_summaries = false, .histograms = true});
  }
  testing::TempDir dir_;
};

TEST_F(PooledLatency, WithinARunEachVariantPoolsItsIterations) {
  const auto runs = stored(latency_run(kRunA));
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].iterations[0].histograms.size(), 1u);
  Table t = compare_variants(runs[0]);
  t.pooled = pooled_latency(t, runs, {});
  ASSERT_EQ(t.pooled.size(), 1u);
  const compare::PooledLatency& p = t.pooled[0];
  EXPECT_EQ(p.case_name, "fork-all");
  EXPECT_EQ(p.histogram, "wakeup_latency");
  EXPECT_EQ(p.unit, "us");
  ASSERT_EQ(p.sides.size(), 2u);
  // baseline: 500 latencies, 5 at 1 ms: p99 = rank 495 -> 10 us; p99.9 (rank 500) 1 ms.
  EXPECT_EQ(p.sides[0].label, "baseline");
  EXPECT_EQ(p.sides[0].iterations, 5u);
  EXPECT_EQ(p.sides[0].samples, 500u);
  EXPECT_DOUBLE_EQ(p.sides[0].quantiles[0], mid_us(10'000));
  EXPECT_DOUBLE_EQ(p.sides[0].quantiles[2], mid_us(10'000));
  EXPECT_DOUBLE_EQ(p.sides[0].quantiles[3], mid_us(1'000'000));
  // tail: 24 of 500 at 1 ms: p90 (rank 450) 10 us, p99 (rank 495) 1 ms — while
  // 4 of its 5 iterations have a p99 of 10 us.
  EXPECT_EQ(p.sides[1].label, "tail");
  EXPECT_DOUBLE_EQ(p.sides[1].quantiles[1], mid_us(10'000));
  EXPECT_DOUBLE_EQ(p.sides[1].quantiles[2], mid_us(1'000'000));

  const nlohmann::json j = report::compare_json(t);
  ASSERT_EQ(j["pooled_percentiles"].size(), 1u);
  const auto& row = j["pooled_percentiles"][0];
  EXPECT_EQ(row["pooled"], true);
  EXPECT_TRUE(row["variant"].is_null());
  EXPECT_EQ(row["sides"][1]["label"], "tail");
  EXPECT_DOUBLE_EQ(row["sides"][1]["p99"].get<double>(), mid_us(1'000'000));
  EXPECT_EQ(row["sides"][1]["samples"], 500);

  std::ostringstream text;
  report::print_compare_table(t, text);
  EXPECT_NE(text.str().find("pooled latency percentiles"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("p99.9"), std::string::npos);
}

TEST_F(PooledLatency, DisturbedIterationsAreLeftOutAsTheComparisonDoes) {
  SyntheticRun s = latency_run(kRunA);
  s.disturbed = {{"tail", 4}};
  const auto runs = stored(s);
  Table t = compare_variants(runs[0]);
  t.pooled = pooled_latency(t, runs, {});
  EXPECT_EQ(t.pooled[0].sides[1].iterations, 4u);
  EXPECT_DOUBLE_EQ(t.pooled[0].sides[1].quantiles[2], mid_us(10'000));
}

TEST_F(PooledLatency, AcrossRunsTheReferenceSideComesFirst) {
  auto a = stored(latency_run(kRunA));
  SyntheticRun b = latency_run(kRunB);
  b.instance = "0b5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5c";
  b.latency_ns = [](const std::string&, const std::string&,
                    unsigned) -> std::vector<std::pair<std::uint64_t, unsigned long long>> {
    return {{20'000, 100}};
  };
  auto bruns = stored(b);
  Table t = compare_runs(bruns, a, {});
  t.pooled = pooled_latency(t, bruns, a);
  ASSERT_EQ(t.pooled.size(), 2u);  // per variant
  EXPECT_EQ(t.pooled[0].variant, "baseline");
  EXPECT_EQ(t.pooled[0].sides[0].run_id, kRunA);
  EXPECT_EQ(t.pooled[0].sides[1].run_id, kRunB);
  EXPECT_DOUBLE_EQ(t.pooled[0].sides[1].quantiles[0], mid_us(20'000));
}

TEST_F(PooledLatency, RunsLoadedWithoutHistogramsHaveNone) {
  store::Store db(dir_.file("schedrig.db"));
  testing::ingest(db, testing::synthetic_run(latency_run(kRunA)));
  const auto runs = db.runs(kRunA);
  EXPECT_TRUE(runs[0].iterations[0].histograms.empty());
  Table t = compare_variants(runs[0]);
  EXPECT_TRUE(pooled_latency(t, runs, {}).empty());
}

}  // namespace
}  // namespace schedrig::compare
