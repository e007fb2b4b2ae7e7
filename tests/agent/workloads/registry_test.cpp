#include "agent/workloads/registry.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "tests/agent/workloads/test_support.h"

namespace schedrig::workloads {
namespace {

using namespace std::chrono_literals;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ParamError& e) {
    return e.what();
  }
  return "";
}

std::set<std::string> param_names(const WorkloadInfo& w) {
  std::set<std::string> out;
  for (const auto& p : w.params) out.insert(p.name);
  return out;
}

const Metric* metric(const WorkloadResult& r, const std::string& name) {
  for (const auto& m : r.metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

TEST(Registry, ForkDeclaresItsPrimaryMetricAndDefaults) {
  const WorkloadInfo& w = find_workload("fork");
  EXPECT_STREQ(w.primary_metric, "bogo_ops_per_s");
  EXPECT_STREQ(w.unit, "ops/s");
  EXPECT_EQ(w.direction, Direction::kHigherIsBetter);
  Params p = with_defaults(w, {{"fork_max", "4"}});
  EXPECT_EQ(p.at("workers"), "auto");
  EXPECT_EQ(p.at("fork_max"), "4");
  EXPECT_EQ(p.at("pin"), "set");
  EXPECT_EQ(p.at("placement_stats"), "on");
}

// Plan parameter names are the documented ones (docs/architecture.md "Plan files (YAML)") (fork_max
// <-> --fork-max).
TEST(Registry, EveryWorkloadHasTheDesignParameterNamesAndValidDefaults) {
  EXPECT_EQ(all_workloads().size(), 7u);
  EXPECT_EQ(param_names(find_workload("fork")),
            (std::set<std::string>{"workers", "fork_max", "pin", "placement_stats", "child_body"}));
  EXPECT_EQ(param_names(find_workload("wakeup")),
            (std::set<std::string>{"message_threads", "workers_per_message", "think_ops"}));
  EXPECT_EQ(
      param_names(find_workload("kv")),
      (std::set<std::string>{"clients", "executors", "read_ratio", "keys", "shards", "membind"}));
  for (const char* tool : {"schbench", "stress-ng", "hackbench", "perf-bench-sched"}) {
    EXPECT_EQ(param_names(find_workload(tool)), (std::set<std::string>{"args"})) << tool;
    EXPECT_NE(find_workload(tool).tool, nullptr) << tool;
  }
  // stress-ng has no default stressor: its args are required.
  EXPECT_EQ(error_of([] { with_defaults(find_workload("stress-ng"), {}); }),
            "stress-ng: parameter 'args' is required");
  for (const auto& w : all_workloads()) {
    const Params given =
        w.name == std::string("stress-ng") ? Params{{"args", "--fork 1"}} : Params{};
    EXPECT_EQ(error_of([&] { w.validate(with_defaults(w, given), 2); }), "") << w.name;
    EXPECT_EQ(error_of([&] { w.validate(with_defaults(w, given), 1); }), "") << w.name;
    EXPECT_NE(std::string(w.primary_metric), "") << w.name;
  }
  const WorkloadInfo& wake = find_workload("wakeup");
  EXPECT_STREQ(wake.primary_metric, "requests_per_s");
  EXPECT_STREQ(wake.unit, "requests/s");
  EXPECT_EQ(wake.direction, Direction::kHigherIsBetter);
  const WorkloadInfo& kv = find_workload("kv");
  EXPECT_STREQ(kv.primary_metric, "ops_per_s");
  EXPECT_STREQ(kv.unit, "ops/s");
  EXPECT_EQ(kv.direction, Direction::kHigherIsBetter);
  Params d = with_defaults(kv, {});
  EXPECT_EQ(d.at("clients"), "128");
  EXPECT_EQ(d.at("executors"), "auto");
  EXPECT_EQ(d.at("membind"), "local");
}

TEST(Registry, UnknownWorkloadListsTheKnownOnes) {
  std::string msg = error_of([] { find_workload("forkk"); });
  EXPECT_NE(msg.find("'forkk'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fork, wakeup, kv"), std::string::npos) << msg;
}

TEST(Registry, UnknownParameterIsNamed) {
  std::string msg = error_of([] { with_defaults(find_workload("fork"), {{"forks", "1"}}); });
  EXPECT_NE(msg.find("'forks'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fork_max"), std::string::npos) << msg;
}

// Each error names the parameter, the value and the allowed range.
TEST(Registry, BadValuesNameParameterValueAndRange) {
  struct Case {
    const char* workload;
    Params params;
    std::vector<std::string> expect;
  };
  const std::vector<Case> cases = {
      {"fork", {{"fork_max", "0"}}, {"fork: parameter 'fork_max' = '0'", "[1, 16000]"}},
      {"fork", {{"workers", "many"}}, {"'workers' = 'many'", "or auto"}},
      {"fork", {{"pin", "core"}}, {"'pin' = 'core'", "set, per-cpu"}},
      {"fork", {{"placement_stats", "yes"}}, {"'placement_stats' = 'yes'", "on, off"}},
      {"fork", {{"child_body", "sleep"}}, {"'child_body' = 'sleep'", "exit, stress-ng"}},
      {"wakeup",
       {{"message_threads", "0"}},
       {"wakeup: parameter 'message_threads' = '0'", "[1, 1024]"}},
      {"wakeup", {{"workers_per_message", "-1"}}, {"'workers_per_message' = '-1'", "or auto"}},
      {"wakeup", {{"think_ops", "1e3"}}, {"'think_ops' = '1e3'", "[0, 1000000]"}},
      {"wakeup",
       {{"message_threads", "1024"}, {"workers_per_message", "1024"}},
       {"'message_threads' = '1024'", "'workers_per_message' = '1024'", "at most 32768"}},
      {"kv", {{"clients", "0"}}, {"kv: parameter 'clients' = '0'", "[1, 16384]"}},
      {"kv", {{"executors", "x"}}, {"'executors' = 'x'", "or auto"}},
      {"kv", {{"read_ratio", "1.5"}}, {"'read_ratio' = '1.5'", "[0, 1]"}},
      {"kv", {{"read_ratio", "60%"}}, {"'read_ratio' = '60%'"}},
      {"kv", {{"read_ratio", "nan"}}, {"'read_ratio' = 'nan'"}},
      {"kv", {{"keys", "0"}}, {"'keys' = '0'", "[1, 100000000]"}},
      {"kv", {{"keys", "10"}, {"shards", "64"}}, {"'shards' = '64'", "[1, keys] = [1, 10]"}},
      {"kv", {{"membind", "remote"}}, {"'membind' = 'remote'", "local, interleave or node:N"}},
      {"kv", {{"membind", "node:x"}}, {"'membind' = 'node:x'"}},
      {"kv", {{"membind", "node:-1"}}, {"'membind' = 'node:-1'"}},
  };
  for (const auto& c : cases) {
    const WorkloadInfo& w = find_workload(c.workload);
    std::string msg = error_of([&] { w.validate(with_defaults(w, c.params), 4); });
    ASSERT_FALSE(msg.empty()) << c.workload << " " << c.expect[0];
    for (const auto& e : c.expect) EXPECT_NE(msg.find(e), std::string::npos) << msg;
  }
  for (const char* ok : {"local", "interleave", "node:0", "node:7"}) {
    const WorkloadInfo& w = find_workload("kv");
    EXPECT_EQ(error_of([&] { w.validate(with_defaults(w, {{"membind", ok}}), 4); }), "") << ok;
  }
  const WorkloadInfo& kv = find_workload("kv");
  EXPECT_EQ(error_of([&] { kv.validate(with_defaults(kv, {{"read_ratio", "0.95"}}), 4); }), "");
}

// Every workload runs through the registry as the runner calls it.
TEST(Registry, EveryWorkloadRunsAndReportsItsPrimaryMetricFirst) {
  std::atomic<bool> stop{false};
  const std::map<std::string, Params> small = {
      {"fork", {{"workers", "2"}, {"fork_max", "2"}}},
      {"wakeup", {{"message_threads", "1"}, {"workers_per_message", "2"}}},
      {"kv", {{"clients", "8"}, {"keys", "1000"}, {"shards", "8"}}}};
  for (const auto& w : all_workloads()) {
    if (w.tool) continue;  // the external tools: tool_case_test.cpp
    RunContext ctx{test::allowed_cpus(), 150ms, &stop};
    WorkloadResult r = w.run(with_defaults(w, small.at(w.name)), ctx);
    ASSERT_FALSE(r.metrics.empty()) << w.name;
    EXPECT_EQ(r.metrics[0].name, w.primary_metric) << w.name;
    EXPECT_EQ(r.metrics[0].unit, w.unit) << w.name;
    EXPECT_EQ(r.metrics[0].direction, w.direction) << w.name;
    EXPECT_GT(r.metrics[0].value, 0) << w.name;
    for (const auto& m : r.metrics) {
      if (m.name.ends_with("_us")) {
        EXPECT_EQ(m.unit, "us") << m.name;
        EXPECT_EQ(m.direction, Direction::kLowerIsBetter) << m.name;
      }
    }
    for (const auto& h : r.histograms) {
      EXPECT_EQ(h.unit, "us") << h.name;
      EXPECT_EQ(h.lower_bounds.size(), h.counts.size()) << h.name;
      EXPECT_TRUE(std::is_sorted(h.lower_bounds.begin(), h.lower_bounds.end())) << h.name;
      EXPECT_FALSE(h.counts.empty()) << h.name;
    }
    EXPECT_FALSE(r.effective_params.empty());
    for (const auto& [k, v] : r.effective_params) EXPECT_NE(v, "auto") << w.name << " " << k;
  }
}

TEST(Registry, WakeupReportsLatencyPercentilesAndHistograms) {
  std::atomic<bool> stop{false};
  const WorkloadInfo& w = find_workload("wakeup");
  RunContext ctx{test::allowed_cpus(), 150ms, &stop};
  WorkloadResult r = w.run(with_defaults(w, {}), ctx);
  for (const char* name :
       {"wakeup_latency_p50_us", "wakeup_latency_p90_us", "wakeup_latency_p99_us",
        "wakeup_latency_p99_9_us", "wakeup_latency_max_us", "request_latency_p50_us",
        "request_latency_p99_us", "requests"}) {
    EXPECT_NE(metric(r, name), nullptr) << name;
  }
  EXPECT_LE(metric(r, "wakeup_latency_p50_us")->value, metric(r, "wakeup_latency_p90_us")->value);
  EXPECT_LE(metric(r, "wakeup_latency_p99_us")->value, metric(r, "wakeup_latency_max_us")->value);
  ASSERT_EQ(r.histograms.size(), 2u);
  EXPECT_EQ(r.histograms[0].name, "wakeup_latency");
  EXPECT_EQ(r.histograms[1].name, "request_latency");
  // workers_per_message auto = ceil(PUs / message_threads), as schbench -t.
  EXPECT_EQ(r.effective_params.at("workers_per_message"),
            std::to_string(test::allowed_cpus().size()));
}

TEST(Registry, WakeupUsesTheRunnersSplit) {
  std::vector<int> cpus = test::allowed_cpus();
  if (cpus.size() < 2) GTEST_SKIP() << "needs two PUs";
  std::atomic<bool> stop{false};
  const WorkloadInfo& w = find_workload("wakeup");
  RunContext ctx{cpus, 100ms, &stop};
  ctx.message_cpus = {cpus[1]};
  ctx.worker_cpus = {cpus[0]};
  WorkloadResult r = w.run(with_defaults(w, {}), ctx);
  EXPECT_EQ(r.effective_params.at("message_cpus"), std::to_string(cpus[1]));
  EXPECT_EQ(r.effective_params.at("worker_cpus"), std::to_string(cpus[0]));
}

TEST(Registry, ForkReportsPlacementMetricsAndPerNodeCountsWhenMapsAreGiven) {
  std::atomic<bool> stop{false};
  const WorkloadInfo& w = find_workload("fork");
  std::vector<int> cpus = test::allowed_cpus();
  RunContext ctx{cpus, 150ms, &stop};
  ctx.pu_to_node.assign(cpus.back() + 1, 0);
  ctx.pu_to_llc.assign(cpus.back() + 1, 0);
  WorkloadResult r = w.run(with_defaults(w, {{"workers", "2"}}), ctx);
  ASSERT_NE(metric(r, "same_pu_rate"), nullptr);
  ASSERT_NE(metric(r, "placement_collision_rate"), nullptr);
  ASSERT_NE(metric(r, "placement_collision_rate_llc"), nullptr);
  ASSERT_NE(metric(r, "children_node0"), nullptr);
  ASSERT_NE(metric(r, "children_llc0"), nullptr);
  EXPECT_DOUBLE_EQ(metric(r, "children_node0")->value, metric(r, "bogo_ops")->value);
  EXPECT_EQ(metric(r, "placement_collision_rate")->unit, "fraction");
  EXPECT_EQ(metric(r, "placement_collision_rate")->direction, Direction::kLowerIsBetter);
  // Without maps: no per-node counts, no LLC-scoped rate.
  RunContext plain{cpus, 100ms, &stop};
  r = w.run(with_defaults(w, {{"workers", "1"}}), plain);
  EXPECT_EQ(metric(r, "children_node0"), nullptr);
  EXPECT_EQ(metric(r, "placement_collision_rate_llc"), nullptr);
  EXPECT_NE(metric(r, "placement_collision_rate"), nullptr);
  r = w.run(with_defaults(w, {{"workers", "1"}, {"placement_stats", "off"}}), plain);
  EXPECT_EQ(metric(r, "same_pu_rate"), nullptr);
  EXPECT_EQ(r.effective_params.at("placement_stats"), "off");
}

}  // namespace
}  // namespace schedrig::workloads
