#include <gtest/gtest.h>

#include "agent/sampler/sampler.h"

namespace schedrig::sampler {
namespace {

const SampleSummary::Stat* find(const SampleSummary& s, const std::string& name) {
  for (const auto& st : s.stats) {
    if (st.name == name) return &st;
  }
  return nullptr;
}

TEST(Summary, Empty) {
  const SampleSummary s = summarize({});
  EXPECT_EQ(s.samples, 0u);
  EXPECT_EQ(s.starved_intervals, 0u);
  EXPECT_TRUE(s.stats.empty());
}

TEST(Summary, MeanP95AndOnlySamplesWithTheField) {
  std::vector<DerivedSample> v;
  for (int i = 1; i <= 20; ++i) {
    DerivedSample s;
    s.idle_pct = i;  // 1..20: mean 10.5, nearest-rank p95 = 19
    s.runnable = static_cast<std::uint32_t>(i);
    if (i <= 4) s.wait_share_pct = 10.0 * i;  // 4 samples: mean 25, p95 40
    s.busy_per_node = {{0, 50}, {1, static_cast<double>(i)}};
    s.starved = i % 5 == 0;
    v.push_back(s);
  }
  const SampleSummary s = summarize(v);
  EXPECT_EQ(s.samples, 20u);
  EXPECT_EQ(s.starved_intervals, 4u);
  const auto* idle = find(s, "idle_pct");
  ASSERT_TRUE(idle);
  EXPECT_EQ(idle->unit, "%");
  EXPECT_DOUBLE_EQ(idle->mean, 10.5);
  EXPECT_DOUBLE_EQ(idle->p95, 19);
  const auto* wait = find(s, "wait_share_pct");
  ASSERT_TRUE(wait);
  EXPECT_DOUBLE_EQ(wait->mean, 25);
  EXPECT_DOUBLE_EQ(wait->p95, 40);
  EXPECT_EQ(find(s, "runnable")->unit, "tasks");
  EXPECT_DOUBLE_EQ(find(s, "busy_pct_node0")->mean, 50);
  EXPECT_DOUBLE_EQ(find(s, "busy_pct_node1")->p95, 19);
  EXPECT_FALSE(find(s, "psi_some_pct"));  // no sample has it
  EXPECT_EQ(find(s, "run_delay_ms_per_s"), nullptr);
  EXPECT_TRUE(find(s, "ctxt_per_s"));
  EXPECT_TRUE(find(s, "load1"));
}

}  // namespace
}  // namespace schedrig::sampler
