// Deltas across snapshots and the derived values, on hand-built snapshots
// and on a fake /proc tree (FakeProc).
#include <gtest/gtest.h>

#include <cerrno>

#include "agent/sampler/counter_delta.h"
#include "agent/sampler/derive.h"
#include "agent/sampler/fake_proc.h"
#include "agent/sampler/snapshot.h"
#include "tests/support/run_command.h"

namespace schedrig::sampler {
namespace {

CpuTimes times(std::uint64_t busy, std::uint64_t idle) {
  CpuTimes t;
  t.user = busy;
  t.idle = idle;
  return t;
}

Snapshot at(double seconds) {
  Snapshot s;
  s.mono_ns = static_cast<std::int64_t>(seconds * 1e9);
  s.real_ns = 1'700'000'000'000'000'000 + s.mono_ns;
  return s;
}

TEST(CounterDelta, DecreaseIsZero) {
  EXPECT_EQ(counter_delta(10, 4), 6u);
  EXPECT_EQ(counter_delta(4, 10), 0u);
  EXPECT_EQ(counter_delta(0, UINT64_MAX), 0u);
}

TEST(Derive, CpuOfflineBetweenSnapshotsCountsOnlyCpusInBoth) {
  Snapshot a = at(0), b = at(2);
  a.stat.cpus = {{0, times(0, 0)}, {1, times(0, 0)}, {2, times(0, 0)}};
  // CPU 1 went offline; CPU 2 came back with reset counters; CPU 5 is new.
  b.stat.cpus = {{0, times(500, 1500)}, {2, times(0, 0)}, {5, times(9000, 0)}};
  a.stat.ctxt = 100;
  b.stat.ctxt = 300;
  b.stat.procs_running = 7;
  b.stat.procs_blocked = 2;
  const DerivedSample s = derive(a, b, {});
  EXPECT_DOUBLE_EQ(s.interval_s, 2.0);
  EXPECT_EQ(s.t_ns, b.real_ns);
  EXPECT_DOUBLE_EQ(s.idle_pct, 75.0);  // CPU 0 only; CPU 2 contributes 0, CPU 5 nothing
  EXPECT_DOUBLE_EQ(s.ctxt_per_s, 100.0);
  EXPECT_EQ(s.runnable, 7u);
  EXPECT_EQ(s.blocked, 2u);
}

TEST(Derive, CountersGoingBackwardsAreNotNegativeOrHuge) {
  Snapshot a = at(0), b = at(1);
  a.stat.cpus = {{0, times(1000, 1000)}};
  b.stat.cpus = {{0, times(1500, 900)}};  // idle stepped back (NO_HZ accounting)
  a.stat.ctxt = 500;
  b.stat.ctxt = 10;  // wrapped or reset
  a.stat.intr = 1;
  b.stat.intr = 0;
  const DerivedSample s = derive(a, b, {});
  EXPECT_DOUBLE_EQ(s.idle_pct, 0.0);
  EXPECT_DOUBLE_EQ(s.ctxt_per_s, 0.0);
  EXPECT_DOUBLE_EQ(s.intr_per_s, 0.0);
}

TEST(Derive, WatchedCpusOnly) {
  Snapshot a = at(0), b = at(1);
  a.stat.cpus = {{0, times(0, 0)}, {1, times(0, 0)}};
  b.stat.cpus = {{0, times(100, 0)}, {1, times(0, 100)}};
  EXPECT_DOUBLE_EQ(derive(a, b, {{1}, {}}).idle_pct, 100.0);
  EXPECT_DOUBLE_EQ(derive(a, b, {{0}, {}}).idle_pct, 0.0);
  EXPECT_DOUBLE_EQ(derive(a, b, {}).idle_pct, 50.0);
}

// What the disturbance check reads: busy and total ns of the watched PUs,
// the workload's run and wait, its processes' reaped children (counted only
// from a process's second reading), and schedstat's run + run_delay of the
// watched PUs.
TEST(Derive, TheDisturbanceInputsOfTheWatchedPus) {
  Snapshot a = at(0), b = at(1);
  a.stat.cpus = {{0, times(0, 0)}, {1, times(0, 0)}};
  b.stat.cpus = {{0, times(800, 200)}, {1, times(300, 700)}};
  a.tasks = {{7, {100, 50, 1}}};
  b.tasks = {{7, {600, 150, 3}}, {8, {40, 10, 1}}};  // 8 was born in the interval
  a.children_ns = {{7, 1000}};
  b.children_ns = {{7, 1250}, {9, 5000}};  // 9: first reading, adds nothing
  Schedstat sa, sb;
  sa.version = sb.version = 16;
  sa.cpus[0].run_time_ns = 0;
  sa.cpus[1].run_time_ns = 0;
  sb.cpus[0].run_time_ns = 800;
  sb.cpus[0].run_delay_ns = 400;
  sb.cpus[1].run_time_ns = 300;
  sb.cpus[1].run_delay_ns = 1000;
  a.schedstat = sa;
  b.schedstat = sb;
  const DerivedSample s = derive(a, b, {{0}, {}});
  EXPECT_EQ(s.watched_busy_ns, 800u);
  EXPECT_EQ(s.watched_total_ns, 1000u);
  EXPECT_EQ(s.workload_run_ns, 540u);   // 500 + 40
  EXPECT_EQ(s.workload_wait_ns, 110u);  // 100 + 10
  EXPECT_EQ(s.workload_children_ns, 250u);
  EXPECT_EQ(s.watched_run_ns, 800u);  // PU 0 only
  EXPECT_EQ(s.watched_delay_ns, 400u);
  const DerivedSample all = derive(a, b, {});
  EXPECT_EQ(all.watched_busy_ns, 1100u);
  EXPECT_EQ(all.watched_delay_ns, 1400u);
  a.tasks.clear();
  b.tasks.clear();
  EXPECT_FALSE(derive(a, b, {}).workload_run_ns);  // no thread registered: not judged
}

class FakeTree : public ::testing::Test {
 protected:
  // Two snapshots of `fake` exactly one second apart (the clocks are set).
  std::pair<Snapshot, Snapshot> around(FakeProc& fake, SnapshotReader& reader, const FakeStep& s) {
    Snapshot a = reader.take();
    fake.step(s);
    Snapshot b = reader.take();
    a.mono_ns = 0;
    b.mono_ns = 1'000'000'000;
    return {std::move(a), std::move(b)};
  }
  schedrig::testing::TempDir dir;
};

TEST_F(FakeTree, DerivedValues) {
  FakeProc fake(dir.path(), {.pus = 4, .nodes = 2, .domains = 3, .schedstat_version = 16});
  fake.add_task(100, 100);
  fake.add_task(100, 101);
  SnapshotReader reader(procfs::Root::under(dir.path()));
  reader.watch_tasks({{100, 100}, {100, 101}});
  FakeStep step;
  step.busy_pct = 25;
  step.ctxt = 5000;
  step.intr = 700;
  step.forks = 3;
  step.procs_running = 9;
  step.newidle_lb = 100;
  step.newidle_failed = 40;
  step.run_delay_ns = 2'000'000;
  step.psi_some_us = 250'000;
  step.numa_miss = 11;
  step.numa_pages_migrated = 22;
  step.load1 = 3.5;
  Snapshot a = reader.take();
  fake.step(step);
  fake.step_task(100, 600, 400);
  fake.step_task(101, 400, 600);
  Snapshot b = reader.take();
  a.mono_ns = 0;
  b.mono_ns = 1'000'000'000;

  const DerivedSample s = derive(a, b, {{}, fake.pu_to_node()});
  EXPECT_NEAR(s.idle_pct, 75, 1e-9);
  ASSERT_EQ(s.busy_per_node.size(), 2u);
  EXPECT_EQ(s.busy_per_node[1].node, 1);
  EXPECT_NEAR(s.busy_per_node[1].busy_pct, 25, 1e-9);
  EXPECT_DOUBLE_EQ(s.ctxt_per_s, 5000);
  EXPECT_DOUBLE_EQ(s.intr_per_s, 700);
  EXPECT_DOUBLE_EQ(s.forks_per_s, 3);
  EXPECT_EQ(s.runnable, 9u);
  ASSERT_TRUE(s.wait_share_pct);
  EXPECT_DOUBLE_EQ(*s.wait_share_pct, 50);  // (400 + 600) / 2000
  ASSERT_TRUE(s.newidle_lb_per_s);
  EXPECT_DOUBLE_EQ(*s.newidle_lb_per_s, 400);  // 4 CPUs x 100
  ASSERT_TRUE(s.newidle_failed_pct);
  EXPECT_DOUBLE_EQ(*s.newidle_failed_pct, 40);
  ASSERT_TRUE(s.run_delay_ms_per_s);
  EXPECT_DOUBLE_EQ(*s.run_delay_ms_per_s, 8);  // 4 CPUs x 2 ms
  ASSERT_TRUE(s.psi_some_pct);
  EXPECT_DOUBLE_EQ(*s.psi_some_pct, 25);
  EXPECT_DOUBLE_EQ(s.numa_miss_per_s.value_or(-1), 11);
  EXPECT_DOUBLE_EQ(s.numa_pages_migrated_per_s.value_or(-1), 22);
  EXPECT_DOUBLE_EQ(s.load1, 3.5);
  EXPECT_FALSE(s.starved);

  // Watching PUs 0-1 only: schedstat sums follow the watched PUs.
  const DerivedSample w = derive(a, b, {{0, 1}, {}});
  EXPECT_DOUBLE_EQ(w.newidle_lb_per_s.value_or(-1), 200);
  EXPECT_TRUE(w.busy_per_node.empty());
}

TEST_F(FakeTree, EveryVersionGivesTheSameNewidleFigures) {
  for (unsigned v : {15u, 16u, 17u}) {
    schedrig::testing::TempDir d;
    FakeProc fake(d.path(), {.pus = 2, .schedstat_version = v});
    SnapshotReader reader(procfs::Root::under(d.path()));
    FakeStep step;
    step.newidle_lb = 50;
    step.newidle_failed = 5;
    auto [a, b] = around(fake, reader, step);
    ASSERT_TRUE(b.schedstat) << "version " << v;
    EXPECT_EQ(b.schedstat->version, v);
    const DerivedSample s = derive(a, b, {});
    EXPECT_DOUBLE_EQ(s.newidle_lb_per_s.value_or(-1), 100) << "version " << v;
    EXPECT_DOUBLE_EQ(s.newidle_failed_pct.value_or(-1), 10) << "version " << v;
    EXPECT_EQ(b.schedstat->cpus.at(0).domains.at(0).lb[kBusy].lb_count, 7u) << "version " << v;
  }
}

TEST_F(FakeTree, CpuGoingOfflineBetweenSnapshots) {
  FakeProc fake(dir.path(), {.pus = 4, .nodes = 2});
  SnapshotReader reader(procfs::Root::under(dir.path()));
  FakeStep first;
  first.busy_pct = 100;
  fake.step(first);
  Snapshot a = reader.take();
  fake.set_online(3, false);
  FakeStep second;
  second.busy_pct = 0;
  second.newidle_lb = 10;
  fake.step(second);
  Snapshot b = reader.take();
  a.mono_ns = 0;
  b.mono_ns = 1'000'000'000;
  EXPECT_EQ(b.stat.cpus.size(), 3u);
  EXPECT_EQ(b.schedstat->cpus.size(), 3u);
  const DerivedSample s = derive(a, b, {{}, fake.pu_to_node()});
  EXPECT_DOUBLE_EQ(s.idle_pct, 100);
  EXPECT_DOUBLE_EQ(s.newidle_lb_per_s.value_or(-1), 30);  // 3 CPUs in both
  ASSERT_EQ(s.busy_per_node.size(), 2u);
  EXPECT_DOUBLE_EQ(s.busy_per_node[1].busy_pct, 0);
}

TEST_F(FakeTree, MissingSourcesLeaveFieldsEmpty) {
  FakeProc fake(dir.path(), {.pus = 2, .schedstat_version = 0, .pressure = false, .vmstat = false});
  SnapshotReader reader(procfs::Root::under(dir.path()));
  reader.watch_tasks({{1, 1}});  // no such thread: skipped
  auto [a, b] = around(fake, reader, FakeStep{});
  const DerivedSample s = derive(a, b, {});
  EXPECT_FALSE(s.newidle_lb_per_s);
  EXPECT_FALSE(s.newidle_failed_pct);
  EXPECT_FALSE(s.run_delay_ms_per_s);
  EXPECT_FALSE(s.psi_some_pct);
  EXPECT_FALSE(s.numa_miss_per_s);
  EXPECT_FALSE(s.wait_share_pct);
  EXPECT_NEAR(s.idle_pct, 50, 1e-9);
}

TEST_F(FakeTree, ThreadThatExitedIsSkipped) {
  FakeProc fake(dir.path(), {.pus = 2});
  fake.add_task(7, 7);
  fake.add_task(7, 8);
  SnapshotReader reader(procfs::Root::under(dir.path()));
  reader.watch_tasks({{7, 7}, {7, 8}});
  Snapshot a = reader.take();
  EXPECT_EQ(a.tasks.size(), 2u);
  fake.step_task(7, 100, 300);
  fake.step_task(8, 100, 100);
  fake.remove_task(7, 8);
  Snapshot b = reader.take();
  EXPECT_EQ(b.tasks.size(), 1u);
  EXPECT_DOUBLE_EQ(derive(a, b, {}).wait_share_pct.value_or(-1), 75);
}

// A thread first seen in the later snapshot was born in the interval (the
// runner starts the sampler before the workload): its counters are all this
// interval's, so the first interval has a wait share too.
TEST_F(FakeTree, ThreadBornInTheIntervalCountsFromZero) {
  FakeProc fake(dir.path(), {.pus = 2});
  fake.add_task(7, 7);
  SnapshotReader reader(procfs::Root::under(dir.path()));
  reader.watch_tasks({{7, 7}});
  Snapshot a = reader.take();
  fake.step_task(7, 100, 100);
  fake.add_task(7, 9);
  fake.step_task(9, 200, 600);
  reader.watch_tasks({{7, 7}, {7, 9}});
  Snapshot b = reader.take();
  ASSERT_EQ(b.tasks.size(), 2u);
  // run 100 + 200, wait 100 + 600: 700 / 1000.
  EXPECT_DOUBLE_EQ(derive(a, b, {}).wait_share_pct.value_or(-1), 70);
}

TEST_F(FakeTree, ProbeSources) {
  FakeProc fake(dir.path(), {.pus = 2, .schedstat_version = 17, .pressure = false});
  const auto st = probe_sources(procfs::Root::under(dir.path()));
  ASSERT_EQ(st.size(), 5u);
  EXPECT_EQ(st[0].path, "/proc/stat");
  EXPECT_TRUE(st[0].present);
  EXPECT_EQ(st[1].path, "/proc/schedstat");
  EXPECT_TRUE(st[1].present);
  EXPECT_EQ(st[1].version, 17u);
  EXPECT_TRUE(st[2].present);
  EXPECT_EQ(st[3].path, "/proc/pressure/cpu");
  EXPECT_FALSE(st[3].present);
  EXPECT_EQ(st[3].reason, "absent (kernel built without CONFIG_PSI?)");
  EXPECT_TRUE(st[4].present);
}

TEST_F(FakeTree, ProbeUnknownSchedstatVersion) {
  FakeProc fake(dir.path(), {.pus = 2, .schedstat_version = 0});
  auto st = probe_sources(procfs::Root::under(dir.path()));
  EXPECT_EQ(st[1].reason, "absent (kernel built without CONFIG_SCHEDSTATS?)");
  write_file_in_place(std::filesystem::path(dir.path()) / "proc/schedstat",
                      "version 18\ntimestamp 1\n");
  st = probe_sources(procfs::Root::under(dir.path()));
  EXPECT_FALSE(st[1].present);
  EXPECT_EQ(st[1].version, 18u);
  EXPECT_EQ(st[1].reason, "unknown schedstat version 18");
  // The reader skips it, never guesses.
  SnapshotReader reader(procfs::Root::under(dir.path()));
  EXPECT_FALSE(reader.take().schedstat);
}

TEST(Probe, ThisMachine) {
  const auto st = probe_sources(procfs::Root::live());
  ASSERT_EQ(st.size(), 5u);
  EXPECT_TRUE(st[0].present) << st[0].reason;
  for (const auto& s : st) {
    EXPECT_TRUE(s.present || !s.reason.empty()) << s.path;
    std::cout << "  " << s.path << ": " << (s.present ? "present" : s.reason)
              << (s.version ? " v" + std::to_string(s.version) : "") << "\n";
  }
}

TEST(SnapshotReaderTest, MissingProcStatThrows) {
  schedrig::testing::TempDir d;
  try {
    SnapshotReader r(procfs::Root::under(d.path()));
    FAIL();
  } catch (const SamplerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    EXPECT_EQ(e.errno_value(), ENOENT);
    EXPECT_NE(std::string(e.what()).find("/proc/stat"), std::string::npos);
  }
}

}  // namespace
}  // namespace schedrig::sampler

namespace schedrig::sampler {
namespace {

TEST(FakeTree160, LargeFilesReadWholeThroughGrowingBuffer) {
  schedrig::testing::TempDir dir;
  FakeProc fake(dir.path(), {.pus = 160, .nodes = 2, .domains = 3, .schedstat_version = 17});
  EXPECT_GT(std::filesystem::file_size(std::filesystem::path(dir.path()) / "proc/stat"), 4096u);
  SnapshotReader reader(procfs::Root::under(dir.path()));
  Snapshot a = reader.take();
  FakeStep step;
  step.busy_pct = 10;
  fake.step(step);
  Snapshot b = reader.take();
  a.mono_ns = 0;
  b.mono_ns = 1'000'000'000;
  ASSERT_EQ(b.stat.cpus.size(), 160u);
  ASSERT_TRUE(b.schedstat);
  ASSERT_EQ(b.schedstat->cpus.size(), 160u);
  EXPECT_EQ(b.schedstat->cpus.at(159).domains.at(2).name, "NUMA");
  // domain0 of CPU 159 is the SMT pair 158-159: the top bits of the top word.
  EXPECT_EQ(b.schedstat->cpus.at(159).domains.at(0).cpumask,
            "c0000000,00000000,00000000,00000000,00000000");
  const DerivedSample s = derive(a, b, {{}, fake.pu_to_node()});
  EXPECT_NEAR(s.idle_pct, 90, 1e-9);
  EXPECT_DOUBLE_EQ(s.newidle_lb_per_s.value_or(-1), 16000);
}

}  // namespace
}  // namespace schedrig::sampler
