#include "agent/workloads/kv_store.h"

#include <thread>

#include <gtest/gtest.h>

#include "tests/agent/workloads/test_support.h"

namespace schedrig::workloads {
namespace {

using namespace std::chrono_literals;
using test::allowed_cpus;
using test::thread_count;

KvParams small() {
  KvParams p;
  p.clients = 8;
  p.executors = 2;
  p.keys = 1000;
  p.shards = 16;
  p.cpus = allowed_cpus();
  p.duration = 250ms;
  return p;
}

TEST(KvStore, ShortRunCountsOpsAndOrdersPercentiles) {
  const int threads_before = thread_count();
  KvParams p = small();
  test::WindowRecorder window;
  p.observer = window.observer();
  KvResult r = run_kv(p);
  // Every client and executor thread of this process, alive, told once,
  // and a progress count that grows while the window is open.
  EXPECT_EQ(window.opened, 1);
  EXPECT_EQ(window.closed, 1);
  EXPECT_EQ(window.tasks.size(), p.clients + p.executors);
  for (const auto& t : window.tasks) EXPECT_EQ(t.pid, ::getpid());
  EXPECT_TRUE(window.all_alive);
  EXPECT_EQ(window.ops_at_open, 0u);
  EXPECT_GT(window.ops_after_100ms, 0u);
  EXPECT_LE(window.ops_after_100ms, r.ops);
  ASSERT_GT(r.ops, 0u);
  EXPECT_EQ(r.reads + r.writes, r.ops);
  EXPECT_GT(r.reads, 0u);  // 60 % reads
  EXPECT_GT(r.writes, 0u);
  EXPECT_GE(r.duration_s, 0.25);
  EXPECT_NEAR(r.ops_per_s, static_cast<double>(r.ops) / r.duration_s, r.ops_per_s * 0.01);
  EXPECT_EQ(r.op_latency.count(), r.ops);  // one sample per counted op
  const auto& h = r.op_latency;
  EXPECT_LE(h.quantile_ns(0.5), h.quantile_ns(0.9));
  EXPECT_LE(h.quantile_ns(0.9), h.quantile_ns(0.99));
  EXPECT_LE(h.quantile_ns(0.99), h.quantile_ns(1.0));
  EXPECT_GT(h.quantile_ns(0.5), 0);
  EXPECT_EQ(r.membind, "local");
  EXPECT_EQ(thread_count(), threads_before);
}

TEST(KvStore, ReadRatioSplitsOps) {
  KvParams p = small();
  p.duration = 100ms;
  p.read_ratio = 1.0;
  KvResult r = run_kv(p);
  EXPECT_GT(r.ops, 0u);
  EXPECT_EQ(r.writes, 0u);
  p.read_ratio = 0.0;
  r = run_kv(p);
  EXPECT_GT(r.ops, 0u);
  EXPECT_EQ(r.reads, 0u);
}

TEST(KvStore, MoreClientsThanKeysAndOneShardStillRun) {
  KvParams p = small();
  p.keys = 3;
  p.shards = 1;
  p.clients = 16;
  p.executors = 3;
  p.duration = 100ms;
  KvResult r = run_kv(p);
  EXPECT_GT(r.ops, 0u);
}

// Bindings go through agent/placement/membind; node 0 and interleave exist on
// every machine, node 999 on none.
TEST(KvStore, MembindIsAppliedOrRefusedNamingThePolicy) {
  KvParams p = small();
  p.duration = 100ms;
  for (const char* policy : {"local", "node:0", "interleave"}) {
    p.membind = policy;
    KvResult r = run_kv(p);
    EXPECT_GT(r.ops, 0u) << policy;
    EXPECT_TRUE(r.membind == policy || r.membind == "none (no NUMA support)") << r.membind;
  }
  const int threads_before = thread_count();
  p.membind = "node:999";
  try {
    run_kv(p);
    FAIL() << "expected WorkloadError";
  } catch (const WorkloadError& e) {
    EXPECT_NE(std::string(e.what()).find("membind 'node:999'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(thread_count(), threads_before);
}

TEST(KvStore, StopFlagEndsTheRunEarlyAndJoinsEveryThread) {
  const int threads_before = thread_count();
  KvParams p = small();
  p.clients = 64;
  p.duration = 60s;
  auto [r, elapsed] = test::run_stopped_after(
      200ms, [&](const std::atomic<bool>* stop) { return run_kv(p, stop); });
  EXPECT_LT(elapsed, 5s);
  EXPECT_GT(r.ops, 0u);
  EXPECT_EQ(thread_count(), threads_before);
}

TEST(KvStore, BadParamsAreWorkloadErrors) {
  KvParams p = small();
  p.shards = 2000;  // more shards than keys
  EXPECT_THROW(run_kv(p), WorkloadError);
  p = small();
  p.read_ratio = 1.5;
  EXPECT_THROW(run_kv(p), WorkloadError);
}

TEST(KvStore, UnpinnablePuIsAWorkloadErrorAndLeavesNoThread) {
  const int threads_before = thread_count();
  KvParams p = small();
  p.cpus = {test::disallowed_pu()};
  EXPECT_THROW(run_kv(p), WorkloadError);
  EXPECT_EQ(thread_count(), threads_before);
}

}  // namespace
}  // namespace schedrig::workloads
