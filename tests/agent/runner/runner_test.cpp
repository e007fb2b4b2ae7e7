#include "agent/runner/runner.h"

#include <unistd.h>

#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include "agent/runner/prepare.h"
#include "agent/runner/watchdog.h"
#include "common/ids.h"
#include "common/plan/plan_yaml.h"
#include "common/run_lock.h"
#include "tests/agent/knobs/fake_root.h"
#include "tests/agent/runner/recording_sink.h"
#include "tests/support/run_command.h"

namespace schedrig::runner {
namespace {

namespace v1 = schedrig::v1;

using testing::RecordingSink;

v1::StartRun start_of(const std::string& yaml) {
  v1::StartRun s;
  s.set_run_id(make_uuid_v4());
  *s.mutable_plan() = parse_plan_yaml(yaml, "test.yaml");
  // No quiet-box wait on the real /proc: other tests run beside these.
  s.mutable_plan()->mutable_quiet()->set_timeout_s(0);
  (*s.mutable_labels())["kernel"] = "test";
  return s;
}

// Knobs live in a fake root (tests/agent/knobs/fake_root.h): nothing real is touched.
struct Knobs {
  knobs::testing::FakeRoot root;
  knobs::KnobController control{root.root(), root.state_dir()};
};

const char* kTwoVariants = R"(
name: t
iterations: 2
duration_s: 0.1
labels: {tag: unit}
cases: [{name: f, workload: fork, params: {workers: 1, fork_max: 2}}]
variants: [{name: a}, {name: b}]
)";

TEST(Runner, RunsEverySlotInterleavedAndReportsOkMetrics) {
  RecordingSink sink;
  Knobs k;
  std::atomic<bool> stop{false};
  auto start = start_of(kTwoVariants);
  v1::RunFinished done = run_plan(start, topology::load_topology({}), sink, k.control, stop);
  ASSERT_EQ(sink.started.size(), 1u);
  EXPECT_EQ(sink.started[0].planned_iterations(), 4u);
  EXPECT_EQ(sink.started[0].labels().at("kernel"), "test");
  EXPECT_EQ(sink.started[0].labels().at("tag"), "unit");
  EXPECT_EQ(sink.started[0].fingerprint().kernel_release(), kernel_release());
  ASSERT_EQ(sink.results.size(), 4u);
  const char* variants[] = {"a", "b", "b", "a"};  // round 2 rotates the variant order
  for (int i = 0; i < 4; ++i) {
    const auto& r = sink.results[i];
    EXPECT_EQ(r.position(), static_cast<unsigned>(i));
    EXPECT_EQ(r.variant(), variants[i]);
    EXPECT_EQ(r.iteration(), i < 2 ? 1u : 2u);
    EXPECT_EQ(r.status(), v1::STATUS_OK) << r.reason();
    ASSERT_GT(r.metrics_size(), 0);
    EXPECT_EQ(r.metrics(0).name(), "bogo_ops_per_s");
    EXPECT_GT(r.metrics(0).value(), 0);
    EXPECT_LT(r.started_at_ns(), r.finished_at_ns());
  }
  EXPECT_EQ(done.status(), v1::STATUS_OK);
  EXPECT_EQ(done.completed_iterations(), 4u);
  ASSERT_EQ(sink.finished.size(), 1u);
}

TEST(Runner, StopBeforeStartAbortsWithoutIterations) {
  RecordingSink sink;
  Knobs k;
  std::atomic<bool> stop{true};
  v1::RunFinished done =
      run_plan(start_of(kTwoVariants), topology::load_topology({}), sink, k.control, stop);
  EXPECT_EQ(done.status(), v1::STATUS_ABORTED);
  EXPECT_TRUE(sink.results.empty());
  EXPECT_EQ(sink.finished.size(), 1u);
}

TEST(Runner, RejectedPlanReportsNothing) {
  RecordingSink sink;
  Knobs k;
  std::atomic<bool> stop{false};
  EXPECT_THROW(run_plan(start_of("duration_s: 0.1\ncases: [{workload: nope}]\n"),
                        topology::load_topology({}), sink, k.control, stop),
               PlanRejected);
  EXPECT_TRUE(sink.started.empty());
  EXPECT_TRUE(sink.finished.empty());
}

TEST(Runner, FailedIterationIsReportedAndTheRestStillRun) {
  // A synthetic machine with PUs this box lacks: pinning fails, the run goes on.
  auto topo =
      topology::load_topology({topology::Source::Kind::kSynthetic, "pack:1 core:1000 pu:1"});
  RecordingSink sink;
  Knobs k;
  std::atomic<bool> stop{false};
  v1::RunFinished done = run_plan(
      start_of(
          "iterations: 2\nduration_s: 0.05\ncases: [{workload: fork, placement: 'cpus:999'}]\n"),
      topo, sink, k.control, stop);
  ASSERT_EQ(sink.results.size(), 2u);
  EXPECT_EQ(sink.results[0].status(), v1::STATUS_FAILED);
  EXPECT_NE(sink.results[0].reason().find("cannot pin"), std::string::npos)
      << sink.results[0].reason();
  EXPECT_EQ(done.status(), v1::STATUS_FAILED);
  EXPECT_EQ(done.completed_iterations(), 2u);
}

TEST(Runner, VariantsSetTheirKnobsRecordThemAndRestoreAtTheEnd) {
  RecordingSink sink;
  Knobs k;
  std::atomic<bool> stop{false};
  auto start = start_of(R"(
iterations: 1
duration_s: 0.05
cases: [{workload: fork, params: {workers: 1}}]
variants:
  - name: baseline
  - name: autogroup-off
    sysctl: {kernel.sched_autogroup_enabled: 0}
  - name: short-migration
    debugfs: {sched/migration_cost_ns: 100000}
)");
  v1::RunFinished done = run_plan(start, topology::load_topology({}), sink, k.control, stop);
  EXPECT_EQ(done.status(), v1::STATUS_OK) << done.reason();
  ASSERT_EQ(sink.results.size(), 3u);
  for (const auto& r : sink.results) {
    const auto& knobs = r.knobs();
    ASSERT_EQ(knobs.size(), 2u) << r.variant();
    EXPECT_EQ(knobs.at("kernel.sched_autogroup_enabled"),
              r.variant() == "autogroup-off" ? "0" : "1");
    EXPECT_EQ(knobs.at("sched/migration_cost_ns"),
              r.variant() == "short-migration" ? "100000" : "500000");
  }
  EXPECT_EQ(k.root.get("proc/sys/kernel/sched_autogroup_enabled"), "1");
  EXPECT_EQ(k.root.get("sys/kernel/debug/sched/migration_cost_ns"), "500000");
}

// A run whose knobs another process is changing (it holds the root's lock)
// tells the sink it waits, naming the holder, then that it took the lock;
// its iterations run after that. A run that takes the lock at once says nothing.
TEST(Runner, AWaitForTheKnobLockIsLoggedToTheRunAsItStartsAndEnds) {
  RecordingSink sink;
  Knobs k;
  std::atomic<bool> stop{false};
  const char* yaml = R"(
iterations: 1
duration_s: 0.05
cases: [{workload: fork, params: {workers: 1}}]
variants: [{name: autogroup-off, sysctl: {kernel.sched_autogroup_enabled: 0}}]
)";
  const v1::StartRun start = start_of(yaml);
  auto holder = std::make_unique<knobs::KnobLock>(k.root.root(), std::chrono::milliseconds(100));
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    holder.reset();
  });
  v1::RunFinished done = run_plan(start, topology::load_topology({}), sink, k.control, stop);
  release.join();
  EXPECT_EQ(done.status(), v1::STATUS_OK) << done.reason();
  ASSERT_EQ(sink.logs.size(), 2u);
  EXPECT_EQ(sink.logs[0].run_id(), start.run_id());
  EXPECT_TRUE(sink.logs[0].waiting());
  EXPECT_EQ(sink.logs[0].level(), "warn");
  EXPECT_EQ(sink.logs[0].message().rfind(
                "waiting for the knob lock held by pid " + std::to_string(::getpid()) +
                    " (another schedrig process changing knobs on this box; lock ",
                0),
            0u)
      << sink.logs[0].message();
  EXPECT_NE(sink.logs[0].message().find("run/schedrig/knobs.lock, up to 30 s)"), std::string::npos)
      << sink.logs[0].message();
  EXPECT_FALSE(sink.logs[1].waiting());
  EXPECT_EQ(sink.logs[1].message().rfind("took the knob lock after 0.", 0), 0u)
      << sink.logs[1].message();
  ASSERT_EQ(sink.results.size(), 1u);
  EXPECT_EQ(sink.results[0].knobs().at("kernel.sched_autogroup_enabled"), "0");

  RecordingSink again;  // nobody holds the lock now
  EXPECT_EQ(run_plan(start_of(yaml), topology::load_topology({}), again, k.control, stop).status(),
            v1::STATUS_OK);
  EXPECT_TRUE(again.logs.empty());
  ASSERT_EQ(again.results.size(), 1u);
}

// A sink that, as each iteration ends, tries to take the knob lock as a
// console `knobs set` would (briefly), recording whether it was held.
class KnobLockProbe : public RecordingSink {
 public:
  explicit KnobLockProbe(const procfs::Root& root) : root_(root) {}
  void iteration_done(const v1::IterationResult& m) override {
    try {
      knobs::KnobLock lock(root_, std::chrono::milliseconds(20));
      held.push_back(false);
    } catch (const knobs::KnobUnavailable&) {
      held.push_back(true);
    }
    RecordingSink::iteration_done(m);
  }
  std::vector<bool> held;

 private:
  procfs::Root root_;
};

// A run whose plan sets knobs holds the knob lock from its start to its
// end, from its baseline's iterations (which set none) on, so a `knobs set`
// cannot land between its iterations; it lets it go at the end. A run that
// sets no knob takes no knob lock (the run lock keeps other runs out).
TEST(Runner, ARunThatSetsKnobsHoldsTheKnobLockFromItsStartToItsEnd) {
  Knobs k;
  KnobLockProbe sink(k.root.root());
  std::atomic<bool> stop{false};
  const char* yaml =
      "iterations: 1\nduration_s: 0.05\nsample_hz: 0\nquiet: {timeout_s: 0}\norder: blocked\n"
      "cases: [{workload: fork, params: {workers: 1}}]\n"
      "variants: [{name: baseline}, {name: autogroup-off, sysctl: "
      "{kernel.sched_autogroup_enabled: 0}}]\n";
  v1::RunFinished done =
      run_plan(start_of(yaml), topology::load_topology({}), sink, k.control, stop);
  EXPECT_EQ(done.status(), v1::STATUS_OK) << done.reason();
  ASSERT_EQ(sink.results.size(), 2u);
  EXPECT_EQ(sink.results[0].variant(), "baseline");
  EXPECT_EQ(sink.held, (std::vector<bool>{true, true}));
  EXPECT_FALSE(k.control.holds_lock());
  EXPECT_NO_THROW(knobs::KnobLock(k.root.root(), std::chrono::milliseconds(20)));

  KnobLockProbe knob_free(k.root.root());
  const char* plain =
      "iterations: 2\nduration_s: 0.05\nsample_hz: 0\nquiet: {timeout_s: 0}\n"
      "cases: [{workload: fork, params: {workers: 1}}]\n";
  EXPECT_EQ(
      run_plan(start_of(plain), topology::load_topology({}), knob_free, k.control, stop).status(),
      v1::STATUS_OK);
  EXPECT_EQ(knob_free.held, (std::vector<bool>{false, false}));
}

// A run given a run lock that another run holds says so as the run's Log,
// naming the holder's pid (the kernel's) and its run and start (its state
// file), and runs its iterations once the lock is free; one that cannot
// wait longer fails naming the holder, before any iteration.
TEST(Runner, ARunWaitsForTheRunLockAndSaysWhoHoldsIt) {
  RecordingSink sink;
  Knobs k;
  std::atomic<bool> stop{false};
  schedrig::testing::TempDir dir;
  RunOptions options;
  options.run_lock = RunLockOptions{dir.file("run.lock"), 0};
  auto other = std::make_unique<RunLock>(*options.run_lock);
  ASSERT_TRUE(other->acquire("other-run", &stop, {}));
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    other.reset();
  });
  const char* yaml =
      "iterations: 1\nduration_s: 0.05\nquiet: {timeout_s: 0}\n"
      "cases: [{workload: fork, params: {workers: 1}}]\n";
  v1::RunFinished done =
      run_plan(start_of(yaml), topology::load_topology({}), sink, k.control, stop, options);
  release.join();
  EXPECT_EQ(done.status(), v1::STATUS_OK) << done.reason();
  ASSERT_EQ(sink.logs.size(), 2u);
  EXPECT_TRUE(sink.logs[0].waiting());
  EXPECT_EQ(
      sink.logs[0].message().rfind("waiting for run lock held by pid " +
                                       std::to_string(::getpid()) + " (run other-run, since 20",
                                   0),
      0u)
      << sink.logs[0].message();
  EXPECT_EQ(sink.logs[1].message().rfind("took the run lock after 0.", 0), 0u)
      << sink.logs[1].message();
  ASSERT_EQ(sink.results.size(), 1u);

  // Held for longer than the run may wait: failed, nothing ran.
  RunLock holder(*options.run_lock);
  ASSERT_TRUE(holder.acquire("long-run", &stop, {}));
  options.run_lock->timeout_s = 0.3;
  RecordingSink late;
  done = run_plan(start_of(yaml), topology::load_topology({}), late, k.control, stop, options);
  EXPECT_EQ(done.status(), v1::STATUS_FAILED);
  EXPECT_EQ(done.reason().rfind("run lock " + dir.file("run.lock") + " still held by pid " +
                                    std::to_string(::getpid()) + " (run long-run, since ",
                                0),
            0u)
      << done.reason();
  EXPECT_TRUE(late.results.empty());
  EXPECT_EQ(late.finished.size(), 1u);
}

// A fake-root run fingerprints the fake tree, not the box it runs on (only
// the uname release stays live).
TEST(Runner, FakeRootRunFingerprintsTheFakeTree) {
  RecordingSink sink;
  Knobs k;
  k.root.put("proc/cmdline", "BOOT_IMAGE=/vmlinuz-fake schedrig.fake_root=1\n");
  k.root.put("sys/devices/system/cpu/smt/control", "notimplemented-fake\n");
  k.root.put("sys/devices/system/cpu/vulnerabilities/fake_bug", "Vulnerable: planted\n");
  std::atomic<bool> stop{false};
  RunOptions options;
  options.root = k.root.root();
  run_plan(start_of("duration_s: 0.05\ncases: [{workload: fork}]\n"), topology::load_topology({}),
           sink, k.control, stop, options);
  ASSERT_EQ(sink.started.size(), 1u);
  const v1::Fingerprint& fp = sink.started[0].fingerprint();
  EXPECT_EQ(fp.kernel_cmdline(), "BOOT_IMAGE=/vmlinuz-fake schedrig.fake_root=1");
  EXPECT_EQ(fp.kernel_release(), kernel_release());
  EXPECT_EQ(fp.fields().at("smt_control"), "notimplemented-fake");
  EXPECT_EQ(fp.fields().at("vulnerability.fake_bug"), "Vulnerable: planted");
  EXPECT_EQ(fp.fields().at("autogroup"), "1");             // the FakeRoot's sysctl
  EXPECT_EQ(fp.fields().at("sched_features"), "unknown");  // none planted
}

TEST(Runner, UnwritableKnobIsRefusedBeforeAnythingRuns) {
  RecordingSink sink;
  Knobs k;
  std::atomic<bool> stop{false};
  auto start = start_of(
      "duration_s: 0.05\ncases: [{workload: fork}]\nvariants: [{name: b}, {name: nr, features: "
      "[NO_NI_RANDOM]}]\n");
  try {
    run_plan(start, topology::load_topology({}), sink, k.control, stop);
    FAIL() << "expected PlanRejected";
  } catch (const PlanRejected& e) {
    EXPECT_EQ(e.code(), v1::ERROR_FACILITY_UNAVAILABLE);
    EXPECT_NE(std::string(e.what()).find("sched/features"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(sink.started.empty());
}

TEST(Watchdog, FiresAfterTheLimit) {
  std::atomic<bool> outer{false};
  Watchdog w(outer, std::chrono::milliseconds(30));
  for (int i = 0; i < 300 && !w.flag().load(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(w.flag().load());
  EXPECT_TRUE(w.fired());
}

TEST(Watchdog, PassesTheRunsStopOnWithoutFiring) {
  std::atomic<bool> outer{false};
  Watchdog w(outer, std::chrono::seconds(60));
  outer = true;
  for (int i = 0; i < 300 && !w.flag().load(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(w.flag().load());
  EXPECT_FALSE(w.fired());
}

}  // namespace
}  // namespace schedrig::runner
