// Store::ingest and Store::runs: tables derived from a realistic envelope stream.
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/envelope_codec.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::store {
namespace {

using schedrig::testing::kRun;
using schedrig::testing::RawDb;
using schedrig::testing::sample_run;
using schedrig::testing::TempDir;

std::vector<Store::Ingest> ingest_all(Store& store, const std::vector<v1::Envelope>& envs) {
  std::vector<Store::Ingest> out;
  for (const auto& env : envs) out.push_back(store.ingest(env, encode_envelope(env)));
  return out;
}

TEST(StoreIngest, DerivesRunIterationsAndMetrics) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  for (auto r : ingest_all(store, sample_run())) EXPECT_EQ(r, Store::Ingest::kStored);

  std::vector<RunRecord> runs = store.runs();
  ASSERT_EQ(runs.size(), 1u);
  const RunRecord& run = runs[0];
  EXPECT_EQ(run.run_id, kRun);
  EXPECT_EQ(run.agent_id, "altra-01");
  EXPECT_EQ(run.instance_id, schedrig::testing::kInstance);
  EXPECT_EQ(run.hostname, "altra-01.lab");
  EXPECT_EQ(run.kernel_release, "6.19.0-rc3");
  EXPECT_EQ(run.pus, 160u);  // Topology's pus, not Hello's allowed_pus (158)
  EXPECT_EQ(run.labels,
            (std::map<std::string, std::string>{{"kernel", "6.19-rc3"}, {"tag", "nightly"}}));
  EXPECT_EQ(run.plan.at("name"), "fork-vs-features");
  EXPECT_EQ(run.plan.at("iterations"), 3);
  EXPECT_DOUBLE_EQ(run.plan.at("duration_s").get<double>(), 5.0);
  EXPECT_EQ(run.plan.at("cases").at(0).at("params").at("workers"), "auto");
  EXPECT_EQ(run.status, "ok");
  EXPECT_EQ(run.reason, "");
  EXPECT_EQ(run.planned_iterations, 3u);
  EXPECT_EQ(run.started_at_ns, schedrig::testing::kT0 + 3'000'000'000LL);   // seq 3's sent_at
  EXPECT_EQ(run.finished_at_ns, schedrig::testing::kT0 + 7'000'000'000LL);  // seq 7's sent_at

  ASSERT_EQ(run.iterations.size(), 3u);
  for (unsigned i = 0; i < 3; ++i) {
    const IterationRecord& it = run.iterations[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(it.case_name, "fork-all");
    EXPECT_EQ(it.variant, "baseline");
    EXPECT_EQ(it.iteration, i + 1);
    EXPECT_EQ(it.position, i);
    EXPECT_EQ(it.cpus, "0-159");
    EXPECT_EQ(it.knobs.at("NI_RANDOM"), "on");
    EXPECT_EQ(it.knobs.at("kernel.sched_autogroup_enabled"), "1");
    EXPECT_EQ(it.started_at_ns, schedrig::testing::kT0 + 10'000'000'000LL * (i + 1));
    ASSERT_EQ(it.metrics.size(), 2u);
    EXPECT_EQ(it.metrics[0].name, "bogo_ops_per_s");
    EXPECT_DOUBLE_EQ(it.metrics[0].value, schedrig::testing::kOpsPerS[i]);
    EXPECT_EQ(it.metrics[0].unit, "ops/s");
    EXPECT_EQ(it.metrics[0].direction, "higher_is_better");
    EXPECT_EQ(it.metrics[1].name, "stale_pick_rate");
    EXPECT_DOUBLE_EQ(it.metrics[1].value, 0.0123 * (i + 1));
    EXPECT_EQ(it.metrics[1].direction, "lower_is_better");
  }
  EXPECT_EQ(run.iterations[0].status, "ok");
  EXPECT_EQ(run.iterations[2].status, "failed");
  EXPECT_EQ(run.iterations[2].reason, "watchdog: overran duration by 2 s");
}

TEST(StoreIngest, RepeatedSeqIsDuplicateAndChangesNothing) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  auto envs = sample_run();
  ingest_all(store, envs);
  const char* tables[] = {"envelopes",  "agents",  "instances", "runs",
                          "iterations", "metrics", "histograms"};
  RawDb raw(store.path(), SQLITE_OPEN_READONLY);
  std::map<std::string, long long> before;
  for (const char* t : tables) before[t] = raw.count(t);
  EXPECT_EQ(before["envelopes"], 7);
  EXPECT_EQ(before["iterations"], 3);
  EXPECT_EQ(before["metrics"], 6);

  // A replay after reconnecting: every envelope again, same ids and seq.
  for (auto r : ingest_all(store, envs)) EXPECT_EQ(r, Store::Ingest::kDuplicate);
  // Same (agent, instance, seq) with another body: still a duplicate, first kept.
  v1::Envelope changed = envs[3];
  changed.mutable_iteration_result()->mutable_metrics(0)->set_value(1.0);
  EXPECT_EQ(store.ingest(changed, encode_envelope(changed)), Store::Ingest::kDuplicate);

  for (const char* t : tables) EXPECT_EQ(raw.count(t), before[t]) << t;
  EXPECT_DOUBLE_EQ(store.runs().at(0).iterations.at(0).metrics.at(0).value,
                   schedrig::testing::kOpsPerS[0]);
}

TEST(StoreIngest, KeepsEveryEnvelopeRawWithItsKind) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  auto envs = sample_run();
  ingest_all(store, envs);
  RawDb raw(store.path(), SQLITE_OPEN_READONLY);
  EXPECT_EQ(raw.scalar("SELECT group_concat(kind, ' ') FROM (SELECT kind FROM envelopes "
                       "ORDER BY seq)"),
            "hello topology run_started iteration_result iteration_result iteration_result "
            "run_finished");
  std::string hex;
  for (unsigned char c : encode_envelope(envs[3])) hex += fmt::format("{:02X}", c);
  EXPECT_EQ(raw.scalar("SELECT hex(body) FROM envelopes WHERE seq = 4"), hex);
  EXPECT_EQ(raw.scalar("SELECT hostname || ' ' || last_seen_ns FROM agents"),
            fmt::format("altra-01.lab {}", envs.back().sent_at_ns()));
  EXPECT_EQ(raw.scalar("SELECT boot_id || ' ' || agent_version || ' ' || allowed_pus FROM "
                       "instances"),
            fmt::format("{} 0.1.0 158", schedrig::testing::kBoot));
}

TEST(StoreIngest, RunIsRunningUntilRunFinished) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  auto envs = sample_run();
  envs.pop_back();
  ingest_all(store, envs);
  RunRecord run = store.runs().at(0);
  EXPECT_EQ(run.status, "running");
  EXPECT_EQ(run.finished_at_ns, 0);

  v1::Envelope finished = schedrig::testing::make_envelope(8);
  finished.mutable_run_finished()->set_run_id(kRun);
  finished.mutable_run_finished()->set_status(v1::STATUS_ABORTED);
  finished.mutable_run_finished()->set_reason("aborted by host: operator request");
  store.ingest(finished, encode_envelope(finished));
  run = store.runs().at(0);
  EXPECT_EQ(run.status, "aborted");
  EXPECT_EQ(run.reason, "aborted by host: operator request");
  EXPECT_EQ(run.finished_at_ns, finished.sent_at_ns());
}

TEST(StoreIngest, PrefixSelectsRunsOldestFirst) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  const std::string later = "9a000000-0000-4000-8000-000000000002";
  const std::string earlier = "9b000000-0000-4000-8000-000000000001";
  ingest_all(store, sample_run(later, 100));  // sent 100 s after kT0
  ingest_all(store, sample_run(earlier, 1));  // same instance, earlier seq and time

  auto all = store.runs();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].run_id, earlier);
  EXPECT_EQ(all[1].run_id, later);
  EXPECT_EQ(all[1].iterations.size(), 3u);

  ASSERT_EQ(store.runs("9a").size(), 1u);
  EXPECT_EQ(store.runs("9a").at(0).run_id, later);
  EXPECT_EQ(store.runs("9").size(), 2u);
  EXPECT_EQ(store.runs(later).size(), 1u);
  EXPECT_TRUE(store.runs("9A").empty());  // case-sensitive, not LIKE
  EXPECT_TRUE(store.runs("%").empty());   // no wildcards
  EXPECT_TRUE(store.runs("ffff").empty());
}

TEST(StoreIngest, ResultsBeforeRunStartedShowOnceItArrives) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  auto envs = sample_run();
  // Iteration results first (seq 4..6), then the rest.
  for (int i : {3, 4, 5, 0, 1}) store.ingest(envs[i], encode_envelope(envs[i]));
  EXPECT_TRUE(store.runs().empty());
  store.ingest(envs[2], encode_envelope(envs[2]));
  auto runs = store.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, "running");
  EXPECT_EQ(runs[0].iterations.size(), 3u);
}

TEST(StoreIngest, SecondResultForSameIterationKeepsTheFirst) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  auto envs = sample_run();
  ingest_all(store, envs);
  v1::Envelope again = envs[3];
  again.set_seq(50);
  again.mutable_iteration_result()->mutable_metrics(0)->set_value(1.0);
  EXPECT_EQ(store.ingest(again, encode_envelope(again)), Store::Ingest::kStored);
  auto run = store.runs().at(0);
  ASSERT_EQ(run.iterations.size(), 3u);
  EXPECT_DOUBLE_EQ(run.iterations[0].metrics[0].value, schedrig::testing::kOpsPerS[0]);
}

TEST(StoreIngest, RefusesEnvelopeWithoutIdentity) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  v1::Envelope env = sample_run()[0];
  env.set_seq(0);
  EXPECT_THROW(store.ingest(env, encode_envelope(env)), StoreError);
  env.set_seq(1);
  env.clear_instance_id();
  EXPECT_THROW(store.ingest(env, encode_envelope(env)), StoreError);
  RawDb raw(store.path(), SQLITE_OPEN_READONLY);
  EXPECT_EQ(raw.count("envelopes"), 0);
}

TEST(StoreIngest, RefusesASeqOverTwoToTheSixtyThree) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  v1::Envelope env = sample_run()[0];
  env.set_seq(static_cast<std::uint64_t>(INT64_MAX) + 1);  // would read back as -1
  try {
    store.ingest(env, encode_envelope(env));
    ADD_FAILURE() << "seq 2^63 was stored";
  } catch (const StoreError& e) {
    EXPECT_EQ(e.reason(), StoreError::Reason::kBadContent);
    EXPECT_NE(std::string(e.what()).find("seq 9223372036854775808, over 2^63 - 1"),
              std::string::npos)
        << e.what();
  }
  env.set_seq(static_cast<std::uint64_t>(INT64_MAX));
  EXPECT_EQ(store.ingest(env, encode_envelope(env)), Store::Ingest::kStored);
  RawDb raw(store.path(), SQLITE_OPEN_READONLY);
  EXPECT_EQ(raw.count("envelopes"), 1);
}

TEST(StoreIngest, ConcurrentIngestFromManyThreads) {
  TempDir tmp;
  Store store(tmp.file("results.db"));
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&store, t] {
      std::string instance = fmt::format("instance-{}", t);
      std::string run = fmt::format("run-{}", t);
      for (const auto& env : sample_run(run, 1, instance)) {
        store.ingest(env, encode_envelope(env));
      }
    });
  }
  for (auto& th : threads) th.join();
  auto runs = store.runs("run-");
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kThreads));
  for (const auto& run : runs) {
    EXPECT_EQ(run.iterations.size(), 3u) << run.run_id;
    EXPECT_EQ(run.status, "ok") << run.run_id;
  }
}

}  // namespace
}  // namespace schedrig::store
