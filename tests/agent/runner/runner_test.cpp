#include "agent/runner/runner.h"

#include <gtest/gtest.h>

#include "agent/runner/prepare.h"
#include "common/ids.h"
#include "common/plan/plan_yaml.h"

namespace schedrig::runner {
namespace {

namespace v1 = schedrig::v1;

// Records what the runner reports, in order.
class RecordingSink : public RunSink {
 public:
  void run_started(const v1::RunStarted& m) override { started.push_back(m); }
  void iteration_done(const v1::IterationResult& m) override { results.push_back(m); }
  void run_finished(const v1::RunFinished& m) override { finished.push_back(m); }
  std::vector<v1::RunStarted> started;
  std::vector<v1::IterationResult> results;
  std::vector<v1::RunFinished> finished;
};

v1::StartRun start_of(const std::string& yaml) {
  v1::StartRun s;
  s.set_run_id(make_uuid_v4());
  *s.mutable_plan() = parse_plan_yaml(yaml, "test.yaml");
  (*s.mutable_labels())["kernel"] = "test";
  return s;
}

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
  std::atomic<bool> stop{false};
  auto start = start_of(kTwoVariants);
  v1::RunFinished done = run_plan(start, topology::load_topology({}), sink, stop);
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
  std::atomic<bool> stop{true};
  v1::RunFinished done = run_plan(start_of(kTwoVariants), topology::load_topology({}), sink, stop);
  EXPECT_EQ(done.status(), v1::STATUS_ABORTED);
  EXPECT_TRUE(sink.results.empty());
  EXPECT_EQ(sink.finished.size(), 1u);
}

TEST(Runner, RejectedPlanReportsNothing) {
  RecordingSink sink;
  std::atomic<bool> stop{false};
  EXPECT_THROW(run_plan(start_of("duration_s: 0.1\ncases: [{workload: nope}]\n"),
                        topology::load_topology({}), sink, stop),
               PlanRejected);
  EXPECT_TRUE(sink.started.empty());
  EXPECT_TRUE(sink.finished.empty());
}

TEST(Runner, FailedIterationIsReportedAndTheRestStillRun) {
  // A synthetic machine with PUs this box lacks: pinning fails, the run goes on.
  auto topo =
      topology::load_topology({topology::Source::Kind::kSynthetic, "pack:1 core:1000 pu:1"});
  RecordingSink sink;
  std::atomic<bool> stop{false};
  v1::RunFinished done = run_plan(
      start_of(
          "iterations: 2\nduration_s: 0.05\ncases: [{workload: fork, placement: 'cpus:999'}]\n"),
      topo, sink, stop);
  ASSERT_EQ(sink.results.size(), 2u);
  EXPECT_EQ(sink.results[0].status(), v1::STATUS_FAILED);
  EXPECT_NE(sink.results[0].reason().find("cannot pin"), std::string::npos)
      << sink.results[0].reason();
  EXPECT_EQ(done.status(), v1::STATUS_FAILED);
  EXPECT_EQ(done.completed_iterations(), 2u);
}

}  // namespace
}  // namespace schedrig::runner
