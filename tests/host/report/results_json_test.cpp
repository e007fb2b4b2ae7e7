// results_json: docs/architecture.md's `results --json` shape, key for key.
#include <set>

#include <gtest/gtest.h>

#include "host/report/results_json.h"
#include "tests/host/report/stored_runs.h"

namespace schedrig::report {
namespace {

std::set<std::string> keys(const nlohmann::json& j) {
  std::set<std::string> out;
  for (const auto& [k, v] : j.items()) out.insert(k);
  return out;
}

TEST(ReportJson, HasExactlyTheDesignedKeysAndTypes) {
  nlohmann::json j = results_json(schedrig::testing::stored_runs());
  EXPECT_EQ(keys(j), (std::set<std::string>{"runs"}));
  ASSERT_TRUE(j["runs"].is_array());
  ASSERT_EQ(j["runs"].size(), 1u);

  const nlohmann::json& run = j["runs"][0];
  // docs/architecture.md's keys plus the allowed additions (reason, started/finished_at_ns).
  EXPECT_EQ(keys(run),
            (std::set<std::string>{"run_id", "agent_id", "hostname", "kernel_release", "boot_id",
                                   "pus", "labels", "plan", "status", "iterations", "reason",
                                   "started_at_ns", "finished_at_ns", "fingerprint"}));
  // The RunStarted's fingerprint, flattened (what `results --fingerprint` prints).
  EXPECT_TRUE(run["fingerprint"].is_object());
  EXPECT_EQ(run["run_id"], schedrig::testing::kRun);
  EXPECT_EQ(run["agent_id"], "altra-01");
  EXPECT_EQ(run["hostname"], "altra-01.lab");
  EXPECT_EQ(run["kernel_release"], "6.19.0-rc3");
  EXPECT_TRUE(run["pus"].is_number_integer());
  EXPECT_EQ(run["pus"], 160);
  EXPECT_TRUE(run["labels"].is_object());
  EXPECT_EQ(run["labels"]["tag"], "nightly");
  EXPECT_TRUE(run["plan"].is_object());
  EXPECT_EQ(run["plan"]["name"], "fork-vs-features");
  EXPECT_EQ(run["status"], "ok");
  EXPECT_TRUE(run["started_at_ns"].is_number_integer());
  ASSERT_TRUE(run["iterations"].is_array());
  ASSERT_EQ(run["iterations"].size(), 3u);

  const nlohmann::json& it = run["iterations"][0];
  EXPECT_EQ(keys(it), (std::set<std::string>{
                          "case", "variant", "iteration", "status", "metrics", "knobs", "reason",
                          "cpus", "started_at_ns", "finished_at_ns", "samples", "quiet_wait_s",
                          "quiet_gave_up", "disturbed", "disturbed_reason", "attempts"}));
  EXPECT_EQ(it["case"], "fork-all");
  EXPECT_EQ(it["variant"], "baseline");
  EXPECT_TRUE(it["iteration"].is_number_integer());
  EXPECT_EQ(it["iteration"], 1);
  EXPECT_EQ(it["status"], "ok");
  EXPECT_TRUE(it["knobs"].is_object());
  EXPECT_EQ(it["knobs"]["NI_RANDOM"], "on");
  EXPECT_EQ(run["iterations"][2]["status"], "failed");
  EXPECT_EQ(run["iterations"][2]["reason"], "watchdog: overran duration by 2 s");

  ASSERT_TRUE(it["metrics"].is_array());
  ASSERT_EQ(it["metrics"].size(), 2u);
  const nlohmann::json& m = it["metrics"][0];
  EXPECT_EQ(keys(m), (std::set<std::string>{"name", "value", "unit", "direction"}));
  EXPECT_EQ(m["name"], "bogo_ops_per_s");
  EXPECT_TRUE(m["value"].is_number());
  EXPECT_DOUBLE_EQ(m["value"].get<double>(), 127553.25);
  EXPECT_EQ(m["unit"], "ops/s");
  EXPECT_EQ(m["direction"], "higher_is_better");
  EXPECT_EQ(it["metrics"][1]["direction"], "lower_is_better");
}

TEST(ReportJson, IterationsCarryTheirSampleSummaryAndQuietWait) {
  nlohmann::json j = results_json(schedrig::testing::stored_sampled_runs());
  const nlohmann::json& it = j["runs"][0]["iterations"][1];
  const nlohmann::json& samples = it["samples"];
  EXPECT_EQ(keys(samples), (std::set<std::string>{"count", "starved_intervals", "stats"}));
  EXPECT_EQ(samples["count"], 2);
  EXPECT_EQ(samples["starved_intervals"], 1);
  ASSERT_EQ(samples["stats"].size(), 6u);
  const nlohmann::json& idle = samples["stats"][0];
  EXPECT_EQ(keys(idle), (std::set<std::string>{"name", "unit", "mean", "p95"}));
  EXPECT_EQ(idle["name"], "idle_pct");
  EXPECT_EQ(idle["unit"], "%");
  EXPECT_EQ(idle["mean"].get<double>(), 23.0);
  EXPECT_EQ(idle["p95"].get<double>(), 23.5);
  EXPECT_EQ(it["quiet_wait_s"].get<double>(), 2.5);
  EXPECT_EQ(it["quiet_gave_up"], false);
  EXPECT_EQ(j["runs"][0]["iterations"][2]["quiet_gave_up"], true);
  EXPECT_EQ(j["runs"][0]["iterations"][2]["disturbed"], true);
  EXPECT_EQ(j["runs"][0]["iterations"][2]["attempts"], 2);
  EXPECT_EQ(it["disturbed_reason"], "");

  // Not sampled: count 0, no stats, no wait.
  nlohmann::json plain = results_json(schedrig::testing::stored_runs());
  const nlohmann::json& old = plain["runs"][0]["iterations"][0];
  EXPECT_EQ(old["samples"].dump(), R"({"count":0,"starved_intervals":0,"stats":[]})");
  EXPECT_EQ(old["quiet_wait_s"].get<double>(), 0.0);
  EXPECT_EQ(old["quiet_gave_up"], false);
}

TEST(ReportJson, NoRunsIsAnEmptyArray) { EXPECT_EQ(results_json({}).dump(), R"({"runs":[]})"); }

}  // namespace
}  // namespace schedrig::report
