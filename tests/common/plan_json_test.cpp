// plan_to_json: the plan in YAML key names and units.
#include <string>

#include <gtest/gtest.h>

#include "common/plan/plan_json.h"
#include "common/plan/plan_yaml.h"

namespace schedrig {
namespace {

v1::Plan sample_plan() {
  v1::Plan p;
  p.set_name("fork-vs-features");
  p.set_iterations(10);
  p.set_duration_ns(5'000'000'000ULL);
  p.set_warmup_ns(250'000'000ULL);
  p.set_cooldown_ns(1'500'000'000ULL);
  p.set_order(v1::ORDER_SHUFFLED);
  p.set_seed(42);
  p.set_sample_hz(2.5);
  (*p.mutable_labels())["zeta"] = "last";
  (*p.mutable_labels())["alpha"] = "first";
  (*p.mutable_labels())["tag"] = "nightly";
  auto* c = p.add_cases();
  c->set_name("kv-local");
  c->set_workload("kv");
  (*c->mutable_params())["shards"] = "64";
  (*c->mutable_params())["clients"] = "128";
  (*c->mutable_params())["read_ratio"] = "0.60";
  c->set_placement("all");
  c->set_membind("local");
  c->mutable_gate()->set_metric("op_latency_p99_us");
  c->mutable_gate()->set_threshold_pct(5);
  auto* c2 = p.add_cases();
  c2->set_name("fork");
  c2->set_workload("fork");
  c2->set_placement("cpus:0-3");
  p.add_variants()->set_name("baseline");
  auto* v = p.add_variants();
  v->set_name("tuned");
  v->add_features("NO_NI_RANDOM");
  v->add_features("TTWU_QUEUE");
  (*v->mutable_sysctl())["kernel.sched_autogroup_enabled"] = "0";
  (*v->mutable_debugfs())["sched/migration_cost_ns"] = "100000";
  return p;
}

TEST(PlanJson, KeysAndUnits) {
  nlohmann::json j = plan_to_json(sample_plan());
  EXPECT_EQ(j["name"], "fork-vs-features");
  EXPECT_EQ(j["iterations"], 10);
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(j["warmup_s"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(j["cooldown_s"].get<double>(), 1.5);
  EXPECT_EQ(j["order"], "shuffled");
  EXPECT_EQ(j["seed"], 42);
  EXPECT_DOUBLE_EQ(j["sample_hz"].get<double>(), 2.5);
  // No raw proto names or ns fields leak out.
  EXPECT_FALSE(j.contains("duration_ns"));
  EXPECT_FALSE(j.contains("warmup_ns"));
  EXPECT_FALSE(j.contains("cooldown_ns"));
  nlohmann::json keys = nlohmann::json::array();
  for (const auto& [k, _] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, nlohmann::json({"cases", "cooldown_s", "duration_s", "iterations", "labels",
                                  "name", "order", "quiet", "sample_hz", "seed", "starvation",
                                  "variants", "warmup_s"}));
}

TEST(PlanJson, OrderWords) {
  v1::Plan p = sample_plan();
  p.set_order(v1::ORDER_INTERLEAVED);
  EXPECT_EQ(plan_to_json(p)["order"], "interleaved");
  p.set_order(v1::ORDER_BLOCKED);
  EXPECT_EQ(plan_to_json(p)["order"], "blocked");
}

TEST(PlanJson, LabelsAndMapsAreSorted) {
  nlohmann::json j = plan_to_json(sample_plan());
  EXPECT_EQ(j["labels"].dump(), R"({"alpha":"first","tag":"nightly","zeta":"last"})");
  EXPECT_EQ(j["cases"][0]["params"].dump(),
            R"({"clients":"128","read_ratio":"0.60","shards":"64"})");
}

TEST(PlanJson, Cases) {
  nlohmann::json cases = plan_to_json(sample_plan())["cases"];
  ASSERT_TRUE(cases.is_array());
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0]["name"], "kv-local");
  EXPECT_EQ(cases[0]["workload"], "kv");
  EXPECT_EQ(cases[0]["placement"], "all");
  EXPECT_EQ(cases[0]["membind"], "local");
  EXPECT_EQ(cases[0]["gate"],
            nlohmann::json({{"metric", "op_latency_p99_us"}, {"threshold_pct", 5.0}}));
  EXPECT_EQ(cases[1]["name"], "fork");
  EXPECT_EQ(cases[1]["placement"], "cpus:0-3");
  EXPECT_TRUE(cases[1]["params"].is_object());
  EXPECT_TRUE(cases[1]["params"].empty());
  EXPECT_FALSE(cases[1].contains("membind"));
  EXPECT_FALSE(cases[1].contains("gate"));
}

TEST(PlanJson, Variants) {
  nlohmann::json vs = plan_to_json(sample_plan())["variants"];
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_EQ(vs[0], nlohmann::json({{"name", "baseline"}}));
  EXPECT_EQ(vs[1]["name"], "tuned");
  EXPECT_EQ(vs[1]["features"], nlohmann::json({"NO_NI_RANDOM", "TTWU_QUEUE"}));
  EXPECT_EQ(vs[1]["sysctl"], nlohmann::json({{"kernel.sched_autogroup_enabled", "0"}}));
  EXPECT_EQ(vs[1]["debugfs"], nlohmann::json({{"sched/migration_cost_ns", "100000"}}));
}

TEST(PlanJson, FromYamlKeepsTheWrittenUnits) {
  v1::Plan p = parse_plan_yaml(
      "name: q\nduration_s: 0.5\nwarmup_s: 2\norder: blocked\nlabels: {b: 2, a: 1}\n"
      "cases: [{workload: fork}]\n",
      "t.yaml");
  nlohmann::json j = plan_to_json(p);
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["warmup_s"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["cooldown_s"].get<double>(), 0.0);
  EXPECT_EQ(j["iterations"], 5);
  EXPECT_EQ(j["order"], "blocked");
  EXPECT_EQ(j["labels"].dump(), R"({"a":"1","b":"2"})");
  EXPECT_EQ(j["cases"][0]["name"], "fork");
  EXPECT_EQ(j["variants"][0]["name"], "baseline");
}

// bisect-knobs --server sends its probe plans as plan_to_json's text in
// plan_yaml (JSON is YAML): parsing it back gives the same plan.
TEST(PlanJson, ReadsBackAsTheSamePlan) {
  v1::Plan p = sample_plan();
  p.set_order(v1::ORDER_INTERLEAVED);
  p.mutable_quiet()->set_max_runnable(2);
  p.mutable_quiet()->set_hold_s(0.5);
  p.mutable_quiet()->set_timeout_s(3);
  p.mutable_quiet()->set_retries(1);
  p.mutable_quiet()->set_disturbance(false);
  p.mutable_starvation()->set_lookahead(4);
  p.mutable_variants(1)->mutable_antagonist()->set_cpus("0-1");
  p.mutable_variants(1)->mutable_antagonist()->set_duty_pct(50);
  p.mutable_iteration_stop()->set_min(5);
  p.mutable_iteration_stop()->set_max(20);
  p.mutable_iteration_stop()->set_delta_pct(2);
  p.set_iterations(20);
  const v1::Plan back = parse_plan_yaml(plan_to_json(p).dump(2), "probe.yaml");
  // The quiet check's effective values are written out, so it reads back
  // set where the original left defaults: the same plan, not the same bytes.
  EXPECT_EQ(plan_to_json(back), plan_to_json(p));
  EXPECT_EQ(back.cases(0).params().at("read_ratio"), "0.60");
  EXPECT_EQ(back.cases(0).gate().threshold_pct(), 5);
  EXPECT_EQ(back.variants(1).features_size(), 2);
  EXPECT_EQ(back.variants(1).antagonist().duty_pct(), 50u);
  EXPECT_EQ(back.iteration_stop().SerializeAsString(), p.iteration_stop().SerializeAsString());
  EXPECT_EQ(back.duration_ns(), p.duration_ns());
  EXPECT_EQ(back.warmup_ns(), p.warmup_ns());
  EXPECT_EQ(back.starvation().lookahead(), 4u);
  EXPECT_EQ(back.starvation().idle_pct(), 0);
}

TEST(PlanJson, TheDefaultPlanReadsBackAsItself) {
  const v1::Plan p = load_plan_file(std::string(SCHEDRIG_SOURCE_DIR) + "/plans/default.yaml");
  const v1::Plan back = parse_plan_yaml(plan_to_json(p).dump(), "default.json");
  EXPECT_EQ(plan_to_json(back), plan_to_json(p));
  EXPECT_EQ(back.cases_size(), p.cases_size());
}

}  // namespace
}  // namespace schedrig
