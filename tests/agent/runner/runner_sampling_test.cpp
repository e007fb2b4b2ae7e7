// The runner's live sampling, quiet-box check and kernel.sched_schedstats
// handling, against a fake /proc tree (agent/sampler/fake_proc.h) inside a
// fake knob root (tests/agent/knobs/fake_root.h): no real knob is touched,
// and /proc/schedstat exists there although this machine has none.
#include <gtest/gtest.h>

#include "agent/runner/runner.h"
#include "agent/sampler/fake_proc.h"
#include "common/ids.h"
#include "common/plan/plan_yaml.h"
#include "tests/agent/knobs/fake_root.h"
#include "tests/agent/runner/recording_sink.h"

namespace schedrig::runner {
namespace {

namespace v1 = schedrig::v1;

using SamplingSink = testing::RecordingSink;

// A fake knob root with a fake /proc inside it, and a controller over it.
struct FakeBox {
  explicit FakeBox(unsigned schedstat_version = 16) : proc(root.dir(), options(schedstat_version)) {
    root.put("proc/sys/kernel/sched_schedstats", "0\n");
  }
  static sampler::FakeProcOptions options(unsigned schedstat_version) {
    sampler::FakeProcOptions o;
    o.schedstat_version = schedstat_version;
    return o;
  }
  RunOptions run_options() const {
    RunOptions o;
    o.root = root.root();
    return o;
  }
  knobs::testing::FakeRoot root;
  sampler::FakeProc proc;
  knobs::KnobController control{root.root(), root.state_dir()};
};

v1::StartRun start_of(const std::string& yaml) {
  v1::StartRun s;
  s.set_run_id(make_uuid_v4());
  *s.mutable_plan() = parse_plan_yaml(yaml, "test.yaml");
  return s;
}

const char* kSampled = R"(
iterations: 1
duration_s: 0.6
sample_hz: 20
quiet: {max_runnable: 4, hold_s: 0.1, timeout_s: 2}
cases: [{name: f, workload: fork, params: {workers: 1, fork_max: 1}}]
)";

TEST(RunnerSampling, SamplesStreamDuringTheWindowWithIdentityAndSummary) {
  FakeBox box;
  SamplingSink sink;
  std::atomic<bool> stop{false};
  const auto start = start_of(kSampled);
  run_plan(start, topology::load_topology({}), sink, box.control, stop, box.run_options());
  ASSERT_EQ(sink.results.size(), 1u);
  const v1::IterationResult& r = sink.results[0];
  ASSERT_EQ(r.status(), v1::STATUS_OK) << r.reason();

  // 0.6 s at 20 Hz: about 11 samples (the first tick waits half a period).
  ASSERT_GE(sink.samples.size(), 6u);
  ASSERT_LE(sink.samples.size(), 13u);
  std::int64_t last_t = 0;
  std::uint64_t last_ops = 0;
  for (const auto& s : sink.samples) {
    EXPECT_EQ(s.run_id(), start.run_id());
    EXPECT_EQ(s.case_name(), "f");
    EXPECT_EQ(s.variant(), "baseline");
    EXPECT_EQ(s.iteration(), 1u);
    EXPECT_EQ(s.position(), 0u);
    EXPECT_GT(s.t_ns(), last_t);
    EXPECT_GE(s.ops_so_far(), last_ops);  // the fork storm's children reaped so far
    EXPECT_GE(s.t_ns(), r.started_at_ns());
    EXPECT_LE(s.t_ns(), r.finished_at_ns());
    last_t = s.t_ns();
    last_ops = s.ops_so_far();
  }
  EXPECT_GT(last_ops, 0u);
  // The fake tree is static: 0 runnable-derived rates, yet every field is there.
  EXPECT_TRUE(sink.samples.back().has_newidle_lb_per_s());
  EXPECT_TRUE(sink.samples.back().has_psi_some_pct());

  // The summary counts exactly the samples streamed.
  EXPECT_EQ(r.sample_summary().samples(), sink.samples.size());
  EXPECT_EQ(r.sample_summary().starved_intervals(), 0u);
  bool has_idle = false;
  for (const auto& stat : r.sample_summary().stats()) has_idle |= stat.name() == "idle_pct";
  EXPECT_TRUE(has_idle);

  // Quiet box (1 runnable = our poller): waited the 0.1 s hold, did not give up.
  EXPECT_GE(r.quiet_wait_s(), 0.1);
  EXPECT_LT(r.quiet_wait_s(), 1.0);
  EXPECT_FALSE(r.quiet_gave_up());
}

TEST(RunnerSampling, BusyBoxGivesUpWaitingAndStillRuns) {
  FakeBox box;
  sampler::FakeStep busy;
  busy.procs_running = 40;
  box.proc.step(busy);
  SamplingSink sink;
  std::atomic<bool> stop{false};
  auto start = start_of(R"(
duration_s: 0.05
iterations: 1
quiet: {max_runnable: 4, hold_s: 0.1, timeout_s: 0.3}
cases: [{workload: fork, params: {workers: 1}}]
)");
  run_plan(start, topology::load_topology({}), sink, box.control, stop, box.run_options());
  ASSERT_EQ(sink.results.size(), 1u);
  EXPECT_EQ(sink.results[0].status(), v1::STATUS_OK) << sink.results[0].reason();
  EXPECT_TRUE(sink.results[0].quiet_gave_up());
  EXPECT_GE(sink.results[0].quiet_wait_s(), 0.3);
  // Disturbed: run again once (quiet.retries defaults to 1), the last attempt recorded.
  EXPECT_TRUE(sink.results[0].disturbed());
  EXPECT_EQ(sink.results[0].attempts(), 2u);
  EXPECT_EQ(sink.results[0].disturbed_reason().rfind("quiet check gave up after 0.3", 0), 0u)
      << sink.results[0].disturbed_reason();
  EXPECT_NE(sink.results[0].disturbed_reason().find("(runnable 39 > 4)"), std::string::npos)
      << sink.results[0].disturbed_reason();
}

// A plan's quiet.retries bounds the runs of a disturbed iteration; with
// quiet.disturbance false it is never disturbed, so never run again.
TEST(RunnerSampling, RetriesAndTheDisturbanceSwitchComeFromThePlan) {
  FakeBox box;
  sampler::FakeStep busy;
  busy.procs_running = 40;
  box.proc.step(busy);
  struct Case {
    const char* quiet;
    bool disturbed;
    std::uint32_t attempts;
  };
  for (const Case& c : {Case{"{max_runnable: 4, hold_s: 0.1, timeout_s: 0.1, retries: 3}", true, 4},
                        Case{"{max_runnable: 4, hold_s: 0.1, timeout_s: 0.1, retries: 0}", true, 1},
                        Case{"{max_runnable: 4, timeout_s: 0.1, disturbance: false}", false, 1}}) {
    SamplingSink sink;
    std::atomic<bool> stop{false};
    auto start = start_of(std::string("duration_s: 0.02\niterations: 1\nquiet: ") + c.quiet +
                          "\ncases: [{workload: fork, params: {workers: 1}}]\n");
    run_plan(start, topology::load_topology({}), sink, box.control, stop, box.run_options());
    ASSERT_EQ(sink.results.size(), 1u) << c.quiet;
    EXPECT_EQ(sink.results[0].status(), v1::STATUS_OK) << sink.results[0].reason();
    EXPECT_TRUE(sink.results[0].quiet_gave_up()) << c.quiet;
    EXPECT_EQ(sink.results[0].disturbed(), c.disturbed) << c.quiet;
    EXPECT_EQ(sink.results[0].attempts(), c.attempts) << c.quiet;
  }
}

TEST(RunnerSampling, SchedstatsIsTurnedOnForTheRunAndRestored) {
  FakeBox box;
  SamplingSink sink;
  std::atomic<bool> stop{false};
  auto start = start_of(R"(
duration_s: 0.05
iterations: 1
quiet: {timeout_s: 0}
cases: [{workload: fork, params: {workers: 1}}]
variants: [{name: a}, {name: b, sysctl: {kernel.sched_autogroup_enabled: 0}}]
)");
  run_plan(start, topology::load_topology({}), sink, box.control, stop, box.run_options());
  ASSERT_EQ(sink.results.size(), 2u);
  for (const auto& r : sink.results) {
    EXPECT_EQ(r.knobs().at("kernel.sched_schedstats"), "1") << r.variant();
  }
  // Said in RunStarted's plan, so the stored run shows it.
  for (const auto& v : sink.started.at(0).plan().variants()) {
    EXPECT_EQ(v.sysctl().at("kernel.sched_schedstats"), "1") << v.name();
  }
  EXPECT_EQ(box.root.get("proc/sys/kernel/sched_schedstats"), "0");
  EXPECT_EQ(sink.finished.at(0).status(), v1::STATUS_OK) << sink.finished.at(0).reason();
}

TEST(RunnerSampling, SchedstatsIsLeftAloneWithoutProcSchedstatOrWhenAPlanSetsIt) {
  for (const bool plan_sets_it : {false, true}) {
    FakeBox box(plan_sets_it ? 16 : 0);  // 0: no /proc/schedstat
    SamplingSink sink;
    std::atomic<bool> stop{false};
    auto start = start_of(
        std::string("duration_s: 0.05\niterations: 1\nquiet: {timeout_s: 0}\n"
                    "cases: [{workload: fork, params: {workers: 1}}]\n") +
        (plan_sets_it ? "variants: [{name: a, sysctl: {kernel.sched_schedstats: 0}}]\n" : ""));
    run_plan(start, topology::load_topology({}), sink, box.control, stop, box.run_options());
    ASSERT_EQ(sink.results.size(), 1u);
    if (plan_sets_it) {
      EXPECT_EQ(sink.results[0].knobs().at("kernel.sched_schedstats"), "0");
    } else {
      EXPECT_EQ(sink.results[0].knobs().count("kernel.sched_schedstats"), 0u);
    }
    EXPECT_EQ(box.root.get("proc/sys/kernel/sched_schedstats"), "0");
  }
}

}  // namespace
}  // namespace schedrig::runner
