#include "host/nightly/night_verdicts.h"

#include <gtest/gtest.h>

namespace schedrig::nightly {
namespace {

// A run of `values` of one case's primary metric (higher is better), on
// `boot`, one iteration each, per variant in plan order (the first is the
// baseline).
store::RunRecord run_of(const std::string& id, const std::string& boot,
                        const std::vector<std::pair<std::string, std::vector<double>>>& variants) {
  store::RunRecord r;
  r.run_id = id;
  r.agent_id = "box1";
  r.boot_id = boot;
  r.status = "ok";
  r.pus = 2;
  nlohmann::json vs = nlohmann::json::array();
  for (const auto& [v, _] : variants) vs.push_back({{"name", v}});
  r.plan = {{"name", "p"},
            {"cases",
             {{{"name", "w"},
               {"workload", "wakeup"},
               {"params", nlohmann::json::object()},
               {"placement", "all"}}}},
            {"variants", vs}};
  unsigned position = 0;
  for (const auto& [variant, values] : variants) {
    unsigned i = 0;
    for (double x : values) {
      store::IterationRecord it;
      it.case_name = "w";
      it.variant = variant;
      it.iteration = ++i;
      it.position = position++;
      it.status = "ok";
      it.cpus = "0-1";
      store::MetricRecord m;
      m.name = "requests_per_s";
      m.unit = "requests/s";
      m.value = x;
      m.direction = "higher_is_better";
      it.metrics.push_back(m);
      r.iterations.push_back(it);
    }
  }
  return r;
}

TEST(NightVerdicts, ASlowerKernelOnEveryBootFailsTheGateAtBootLevel) {
  LabFile lab;
  NightRuns runs;
  KernelRuns a{"A", {}}, b{"B", {}};
  for (int i = 0; i < 3; ++i) {
    const double d = i * 0.5;
    a.runs.push_back(run_of("a" + std::to_string(i), "ba" + std::to_string(i),
                            {{"base", {100 + d, 101 + d, 99 + d}}}));
    b.runs.push_back(run_of("b" + std::to_string(i), "bb" + std::to_string(i),
                            {{"base", {60 + d, 61 + d, 59 + d}}}));
  }
  runs.plans["box1"]["p.yaml"] = {a, b};
  runs.baselines["box1"]["p.yaml"] = a;
  const NightVerdicts v = judge_night(lab, runs);
  ASSERT_EQ(v.rows.size(), 1u) << (v.problems.empty() ? "" : v.problems[0]);
  EXPECT_EQ(v.rows[0].kernel, "B");
  EXPECT_EQ(v.rows[0].baseline, "A");
  EXPECT_EQ(v.rows[0].level, "boot");
  EXPECT_EQ(v.rows[0].mark, "(R)");
  EXPECT_TRUE(v.rows[0].gate_failed);
  EXPECT_NEAR(v.rows[0].change_pct, -40, 1);
  EXPECT_TRUE(v.regression);
  EXPECT_FALSE(v.detector_failed);
}

TEST(NightVerdicts, TheSelftestMustFindItsAntagonistInEveryBoot) {
  LabFile lab;
  NightRuns runs;
  runs.selftests["box1"] = {
      run_of("s1", "b1", {{"as-found", {100, 101, 99}}, {"antagonist", {50, 51, 49}}}),
      run_of("s2", "b2", {{"as-found", {100, 101, 99}}, {"antagonist", {100, 99, 101}}})};
  const NightVerdicts v = judge_night(lab, runs);
  ASSERT_EQ(v.selftests.size(), 1u);
  EXPECT_EQ(v.selftests[0].boots, 2u);
  EXPECT_EQ(v.selftests[0].regressed, 1u);
  EXPECT_FALSE(v.selftests[0].ok());
  EXPECT_TRUE(v.detector_failed);
  ASSERT_EQ(v.selftests[0].notes.size(), 1u);
  EXPECT_NE(v.selftests[0].notes[0].find("boot b2: run s2"), std::string::npos)
      << v.selftests[0].notes[0];
  const std::string text = summary_text("n", lab, v, {});
  EXPECT_NE(text.find("selftest box1: the antagonist was (R) in 1 of 2 boots: DETECTOR FAILED"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace schedrig::nightly
