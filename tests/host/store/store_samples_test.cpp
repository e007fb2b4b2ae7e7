// Samples and sample summaries (issue #6): Store::samples, incremental
// reads by id, Store::run_progress for `watch`, and the iterations' summary
// and quiet-box columns.
#include <gtest/gtest.h>

#include "common/envelope_codec.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::store {
namespace {

using schedrig::testing::kRun;
using schedrig::testing::kT0;
using schedrig::testing::make_sample;
using schedrig::testing::RawDb;
using schedrig::testing::sampled_run;
using schedrig::testing::TempDir;

void ingest_envelopes(Store& store, const std::vector<v1::Envelope>& envs) {
  for (const auto& env : envs) store.ingest(env, encode_envelope(env));
}

std::vector<std::string> names_of(const SampleRecord& s) {
  std::vector<std::string> out;
  for (const auto& [name, v] : s.values) out.push_back(name);
  return out;
}

TEST(StoreSamples, EverySampleComesBackExactlyInArrivalOrder) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  ingest_envelopes(store, sampled_run());
  const std::vector<SampleRecord> samples = store.samples(kRun);
  ASSERT_EQ(samples.size(), 6u);
  for (std::size_t i = 1; i < samples.size(); ++i) EXPECT_GT(samples[i].id, samples[i - 1].id);

  // The first sample of iteration 2 (position 1), every value present.
  const SampleRecord& s = samples[2];
  EXPECT_EQ(s.run_id, kRun);
  EXPECT_EQ(s.case_name, "fork-all");
  EXPECT_EQ(s.variant, "baseline");
  EXPECT_EQ(s.iteration, 2u);
  EXPECT_EQ(s.position, 1u);
  EXPECT_EQ(s.t_ns, kT0 + 21'250'000'000LL);
  EXPECT_EQ(s.interval_s, 1.0);
  EXPECT_EQ(s.ops_so_far, 1001u);
  const std::vector<std::pair<std::string, double>> want = {{"idle_pct", 22.5},
                                                            {"busy_pct_node0", 70.25},
                                                            {"busy_pct_node1", 80.5},
                                                            {"ctxt_per_s", 1234577.0},
                                                            {"intr_per_s", 45688.5},
                                                            {"forks_per_s", 2355.25},
                                                            {"runnable", 140},
                                                            {"blocked", 2},
                                                            {"wait_share_pct", 51.5},
                                                            {"newidle_lb_per_s", 688.0},
                                                            {"newidle_failed_pct", 22.25},
                                                            {"run_delay_ms_per_s", 355.5},
                                                            {"psi_some_pct", 17.75},
                                                            {"numa_pages_migrated_per_s", 21.0},
                                                            {"numa_miss_per_s", 13.5},
                                                            {"load1", 106.5}};
  EXPECT_EQ(s.values, want);  // exact doubles: stored as the agent sent them
  EXPECT_FALSE(s.starved);
  EXPECT_EQ(s.starved_reason, "");

  const SampleRecord& flagged = samples[3];
  EXPECT_TRUE(flagged.starved);
  EXPECT_EQ(flagged.starved_reason, "crowd then idle: runnable 131 >= 128 PUs, then idle 85%");
  EXPECT_EQ(flagged.interval_s, 1.001);
}

TEST(StoreSamples, AbsentValuesStayAbsent) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  ingest_envelopes(store, sampled_run());
  const SampleRecord sparse = store.samples(kRun).at(4);  // position 2: no schedstat, no PSI
  EXPECT_EQ(names_of(sparse), (std::vector<std::string>{
                                  "idle_pct", "busy_pct_node0", "busy_pct_node1", "ctxt_per_s",
                                  "intr_per_s", "forks_per_s", "runnable", "blocked", "load1"}));
}

TEST(StoreSamples, AfterIdReturnsOnlyNewerSamples) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  const auto envs = sampled_run();
  ingest_envelopes(store,
                   std::vector<v1::Envelope>(envs.begin(), envs.begin() + 6));  // 2 samples in
  const auto first = store.samples(kRun);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_TRUE(store.samples(kRun, first.back().id).empty());
  EXPECT_EQ(store.samples(kRun, first.front().id).size(), 1u);

  ingest_envelopes(store, std::vector<v1::Envelope>(envs.begin() + 6, envs.end()));
  const auto rest = store.samples(kRun, first.back().id);
  ASSERT_EQ(rest.size(), 4u);
  EXPECT_EQ(rest.front().position, 1u);
  EXPECT_GT(rest.front().id, first.back().id);
}

TEST(StoreSamples, PrefixMatchesAndOtherRunsStayOut) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  ingest_envelopes(store, sampled_run());
  const std::string other = "3f2b0000-0000-4000-8000-000000000000";
  store.ingest(make_sample(100, other, 0, 0), encode_envelope(make_sample(100, other, 0, 0)));
  EXPECT_EQ(store.samples(kRun).size(), 6u);
  EXPECT_EQ(store.samples("3f2a").size(), 6u);
  EXPECT_EQ(store.samples(other).size(), 1u);
  EXPECT_EQ(store.samples("3f2").size(), 7u);
  EXPECT_EQ(store.samples("").size(), 7u);
  EXPECT_TRUE(store.samples("3F2A").empty());
  EXPECT_TRUE(store.samples("ffff").empty());
}

TEST(StoreSamples, KeptBeforeTheRunIsStartedAndNeverDoubled) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  const v1::Envelope sample = make_sample(4, kRun, 0, 0);
  EXPECT_EQ(store.ingest(sample, encode_envelope(sample)), Store::Ingest::kStored);
  EXPECT_TRUE(store.runs().empty());
  EXPECT_EQ(store.samples(kRun).size(), 1u);
  // A replay after reconnecting changes nothing.
  EXPECT_EQ(store.ingest(sample, encode_envelope(sample)), Store::Ingest::kDuplicate);
  EXPECT_EQ(store.samples(kRun).size(), 1u);
  RawDb raw(store.path(), SQLITE_OPEN_READONLY);
  EXPECT_EQ(raw.scalar("SELECT kind FROM envelopes"), "sample");
}

TEST(StoreSamples, IterationsCarryTheirSummaryAndQuietWait) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  ingest_envelopes(store, sampled_run());
  const RunRecord run = store.runs().at(0);
  ASSERT_EQ(run.iterations.size(), 3u);
  const IterationRecord& it = run.iterations[1];
  EXPECT_EQ(it.sample_summary.samples, 2u);
  EXPECT_EQ(it.sample_summary.starved_intervals, 1u);
  ASSERT_EQ(it.sample_summary.stats.size(), 6u);
  EXPECT_EQ(it.sample_summary.stats[0].name, "idle_pct");
  EXPECT_EQ(it.sample_summary.stats[0].unit, "%");
  EXPECT_EQ(it.sample_summary.stats[0].mean, 23.0);
  EXPECT_EQ(it.sample_summary.stats[0].p95, 23.5);
  EXPECT_EQ(it.sample_summary.stats[1].name, "ctxt_per_s");
  EXPECT_EQ(it.sample_summary.stats[1].unit, "/s");
  EXPECT_EQ(it.sample_summary.stats[2].unit, "tasks");
  EXPECT_EQ(it.quiet_wait_s, 2.5);
  EXPECT_FALSE(it.quiet_gave_up);
  EXPECT_EQ(run.iterations[2].sample_summary.stats.size(), 3u);
  EXPECT_TRUE(run.iterations[2].quiet_gave_up);
  EXPECT_FALSE(it.disturbed);
  EXPECT_EQ(it.attempts, 1u);  // 0 on the wire (not set) reads as one attempt
  EXPECT_TRUE(run.iterations[2].disturbed);
  EXPECT_EQ(run.iterations[2].disturbed_reason, "quiet check gave up after 10 s");
  EXPECT_EQ(run.iterations[2].attempts, 2u);
  EXPECT_EQ(run.boot_id, sampled_run().front().boot_id());
  EXPECT_FALSE(run.boot_id.empty());
  EXPECT_GT(run.iterations[2].id, run.iterations[1].id);

  // An iteration without a summary (an agent from before sampling) reads as
  // not sampled.
  Store plain(tmp.file("plain.db"));
  ingest_envelopes(plain, schedrig::testing::sample_run());
  const IterationRecord old = plain.runs().at(0).iterations.at(0);  // a copy: runs() is a temporary
  EXPECT_EQ(old.sample_summary.samples, 0u);
  EXPECT_TRUE(old.sample_summary.stats.empty());
  EXPECT_EQ(old.quiet_wait_s, 0.0);
  EXPECT_FALSE(old.quiet_gave_up);
}

TEST(StoreSamples, LeanRunsSkipTheSummariesOnly) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  ingest_envelopes(store, sampled_run());
  const RunRecord run =
      store.runs(kRun, RunsOptions{.sample_summaries = false, .histograms = false}).at(0);
  ASSERT_EQ(run.iterations.size(), 3u);
  EXPECT_EQ(run.iterations[1].sample_summary.samples, 0u);
  EXPECT_TRUE(run.iterations[1].sample_summary.stats.empty());
  EXPECT_EQ(run.iterations[1].quiet_wait_s, 2.5);
  EXPECT_EQ(run.iterations[1].metrics.size(), 2u);
}

TEST(StoreSamples, RunProgressReadsWhatArrivedSinceTheLastPoll) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  const auto envs = sampled_run();
  // Hello, Topology, RunStarted, both samples of position 0, its result.
  ingest_envelopes(store, std::vector<v1::Envelope>(envs.begin(), envs.begin() + 6));
  RunProgress p = store.run_progress(kRun, 0, 0);
  EXPECT_EQ(p.status, "running");
  EXPECT_EQ(p.planned_iterations, 3u);
  ASSERT_EQ(p.samples.size(), 2u);
  ASSERT_EQ(p.iterations.size(), 1u);
  EXPECT_EQ(p.iterations[0].metrics.at(0).value, schedrig::testing::kOpsPerS[0]);
  const long long last_sample = p.samples.back().id;
  const long long last_iteration = p.iterations.back().id;

  p = store.run_progress(kRun, last_sample, last_iteration);
  EXPECT_EQ(p.status, "running");
  EXPECT_TRUE(p.samples.empty());
  EXPECT_TRUE(p.iterations.empty());

  ingest_envelopes(store, std::vector<v1::Envelope>(envs.begin() + 6, envs.end()));
  p = store.run_progress(kRun, last_sample, last_iteration);
  EXPECT_EQ(p.status, "ok");
  EXPECT_EQ(p.samples.size(), 4u);
  ASSERT_EQ(p.iterations.size(), 2u);
  EXPECT_EQ(p.iterations[0].position, 1u);
  EXPECT_EQ(p.iterations[1].metrics.size(), 2u);

  EXPECT_EQ(store.run_progress("no-such-run", 0, 0).status, "");
  EXPECT_TRUE(store.run_progress("3f2a", 0, 0).samples.empty());  // exact id only
}

TEST(StoreSamples, RunIdsOldestFirstWithoutLoadingRuns) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  const std::string later = "9a000000-0000-4000-8000-000000000002";
  const std::string earlier = "9b000000-0000-4000-8000-000000000001";
  ingest_envelopes(store, schedrig::testing::sample_run(later, 100));
  ingest_envelopes(store, schedrig::testing::sample_run(earlier, 1));
  EXPECT_EQ(store.run_ids(), (std::vector<std::string>{earlier, later}));
  EXPECT_EQ(store.run_ids("9a"), (std::vector<std::string>{later}));
  EXPECT_TRUE(store.run_ids("9A").empty());
}

}  // namespace
}  // namespace schedrig::store
