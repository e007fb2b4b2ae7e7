// The external tools as workloads (agent/workloads/tool_case.h): the probe
// that refuses a plan, the run loop, failures in the tool's own words, and
// real runs of the tools Debian installs (stress-ng, rt-tests hackbench,
// linux-perf) and of schbench when $SCHBENCH or /usr/local/bin/schbench is
// a trusted binary. Fake tools are root-owned shell scripts under /run
// (tests/agent/tools/root_owned_dir.h): they need root, and skip without.
#include "agent/workloads/tool_case.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "agent/tools/tool_binary.h"
#include "agent/tools/tool_error.h"
#include "agent/workloads/workload_error.h"
#include "tests/agent/tools/root_owned_dir.h"
#include "tests/agent/workloads/test_support.h"

namespace schedrig::workloads {
namespace {

using namespace std::chrono_literals;

const Metric* metric(const WorkloadResult& r, const std::string& name) {
  for (const auto& m : r.metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

RunContext context(std::chrono::nanoseconds d, const tools::ToolPaths* paths) {
  RunContext ctx;
  ctx.cpus = test::allowed_cpus();
  ctx.duration = d;
  ctx.tools = paths;
  return ctx;
}

std::string run_error(const std::string& workload, const Params& p, const RunContext& ctx) {
  const WorkloadInfo& w = find_workload(workload);
  try {
    w.run(with_defaults(w, p), ctx);
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "(no error)";
}

// A fake hackbench: lists --loops, prints "Time:" per run, or fails on
// demand (its first argument).
constexpr const char* kFakeHackbench =
    "#!/bin/sh\n"
    "case \"$1\" in\n"
    "  --help) echo '-l --loops=LOOPS how many messages';;\n"
    "  -g) echo 'Running in process mode with 1 groups using 2 file descriptors each (== 4 "
    "tasks)'; sleep 0.05; echo 'Time: 0.050';;\n"
    "  -p) echo 'hackbench: cannot create pipe' >&2; exit 1;;\n"
    "  -s) sleep 30;;\n"
    "  *) echo 'no time here';;\n"
    "esac\n";

class FakeTool : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!root_.skip_reason().empty()) GTEST_SKIP() << root_.skip_reason();
    paths_.set("hackbench", root_.write_script("hackbench", kFakeHackbench));
  }
  tools::testing::RootOwnedDir root_{"schedrig-tool-case-test"};
  tools::ToolPaths paths_;
};

TEST_F(FakeTool, RunsAgainUntilTheWindowClosesAndReportsTheMeanAndItsTasks) {
  RunContext ctx = context(1s, &paths_);
  std::vector<procfs::TaskId> tasks;
  int closed = 0;
  ctx.observer.opened = [&](const WorkloadWindow& w) { tasks = w.tasks; };
  ctx.observer.closed = [&] { ++closed; };
  const WorkloadInfo& w = find_workload("hackbench");
  const WorkloadResult r = w.run(with_defaults(w, {{"args", "-g 1"}}), ctx);
  ASSERT_FALSE(r.metrics.empty());
  EXPECT_EQ(r.metrics[0].name, "time_s");
  EXPECT_DOUBLE_EQ(r.metrics[0].value, 0.05);
  EXPECT_EQ(r.metrics[0].direction, Direction::kLowerIsBetter);
  ASSERT_NE(metric(r, "runs"), nullptr);
  EXPECT_GE(metric(r, "runs")->value, 2);  // ~60 ms a run in a 1 s window
  EXPECT_DOUBLE_EQ(metric(r, "tasks")->value, 4);
  EXPECT_EQ(r.effective_params.at("args"), "-g 1 -l 100");
  EXPECT_EQ(r.effective_params.at("binary"), paths_.path_of("hackbench"));
  EXPECT_FALSE(tasks.empty());  // the script and its sleep
  EXPECT_EQ(closed, 1);
  EXPECT_TRUE(test::no_children_left());
}

TEST_F(FakeTool, FailsInTheToolsOwnWords) {
  EXPECT_EQ(run_error("hackbench", {{"args", "-p"}}, context(200ms, &paths_)),
            "hackbench exited with status 1: 'hackbench: cannot create pipe'");
  EXPECT_EQ(run_error("hackbench", {{"args", "-T"}}, context(200ms, &paths_)),
            "hackbench: no 'Time:' line in its output: 'no time here'");
  EXPECT_TRUE(test::no_children_left());
}

// Stopped (an abort, SIGINT, the watchdog) before its run ended: no
// result, never an empty success, and nothing of the tool left running.
TEST_F(FakeTool, StoppedBeforeItsRunEndedIsAFailureWithNoResult) {
  std::atomic<bool> stop{false};
  RunContext ctx = context(10s, &paths_);
  ctx.stop = &stop;
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(300ms);
    stop = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(run_error("hackbench", {{"args", "-s 1"}}, ctx),
            "hackbench: stopped before its run ended: no result");
  stopper.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_TRUE(test::no_children_left());
}

TEST_F(FakeTool, TheProbeRefusesAVersionWithoutANeededOptionAndAnUntrustedBinary) {
  const ToolAdapter& hackbench = *find_workload("hackbench").tool;
  const ToolProbe probe = probe_tool(hackbench, paths_, {0});
  EXPECT_NE(probe.help.find("--loops"), std::string::npos);
  EXPECT_EQ(probe.binary, paths_.path_of("hackbench"));
  paths_.set("hackbench", root_.write_script("old-hackbench", "#!/bin/sh\necho usage >&2\n"));
  try {
    probe_tool(hackbench, paths_, {0});
    FAIL() << "no error";
  } catch (const tools::ToolArgsError& e) {
    EXPECT_EQ(std::string(e.what()),
              "hackbench: binary " + paths_.path_of("hackbench") +
                  ": `hackbench --help` does not list --loops (exited with status 0); schedrig "
                  "needs a hackbench that has it");
  }
  paths_.set("hackbench", "/nonexistent/hackbench");
  EXPECT_THROW(probe_tool(hackbench, paths_, {0}), tools::ToolArgsError);
  EXPECT_EQ(run_error("hackbench", {}, context(100ms, &paths_)).rfind("hackbench: binary ", 0), 0U);
}

TEST(ToolCase, ArgsAreCheckedAgainstThePlacementBeforeAnythingRuns) {
  const WorkloadInfo& w = find_workload("schbench");
  try {
    check_tool_case(*w.tool, w, with_defaults(w, {{"args", "-M 0 -W 4-7"}}), {0, 1, 2, 3});
    FAIL() << "no error";
  } catch (const ParamError& e) {
    EXPECT_EQ(e.param(), "args");
    EXPECT_STREQ(e.what(), "schbench: argument '-W': CPU 4 is outside the placement's cpulist 0-3");
  }
  const WorkloadInfo& s = find_workload("stress-ng");
  EXPECT_THROW(check_tool_case(*s.tool, s, {{"args", "--fork 1 -t 5"}}, {0}), ParamError);
  EXPECT_NO_THROW(check_tool_case(*s.tool, s, {{"args", "--fork 1"}}, {0}));
  // Splitting is checked by validate, on the host too, and stress-ng needs
  // a stressor.
  EXPECT_THROW(s.validate({{"args", "--fork 'unterminated"}}, 1), ParamError);
  try {
    s.validate({{"args", "  "}}, 1);
    FAIL() << "no error";
  } catch (const ParamError& e) {
    EXPECT_STREQ(e.what(),
                 "stress-ng: parameter 'args' = '': names no stressor (e.g. \"--fork 4\")");
  }
  EXPECT_NO_THROW(find_workload("hackbench").validate({{"args", ""}}, 1));
}

// A real run's primary metric is the one the registry declares.
void expect_primary(const WorkloadInfo& w, const WorkloadResult& r) {
  ASSERT_FALSE(r.metrics.empty()) << w.name;
  EXPECT_EQ(r.metrics[0].name, w.primary_metric) << w.name;
  EXPECT_EQ(r.metrics[0].unit, w.unit) << w.name;
  EXPECT_EQ(r.metrics[0].direction, w.direction) << w.name;
  EXPECT_GT(r.metrics[0].value, 0) << w.name;
}

// The real tools, where this box has them (scripts/setup installs Debian's).
std::string installed(const std::string& tool, const tools::ToolPaths& paths) {
  try {
    return tools::trusted_tool_binary(tool, paths.path_of(tool));
  } catch (const std::exception&) {
    return "";
  }
}

TEST(RealTools, StressNgForkStormUnderSchedrigsTimeout) {
  tools::ToolPaths paths;
  if (installed("stress-ng", paths).empty()) GTEST_SKIP() << "no trusted stress-ng";
  const RunContext ctx = context(1s, &paths);
  const WorkloadInfo& w = find_workload("stress-ng");
  const WorkloadResult r = w.run(with_defaults(w, {{"args", "--fork 1 --fork-max 4"}}), ctx);
  expect_primary(w, r);
  ASSERT_NE(metric(r, "fork_real_time_s"), nullptr);
  EXPECT_NEAR(metric(r, "fork_real_time_s")->value, 1.0, 0.5);
  EXPECT_TRUE(test::no_children_left());
}

TEST(RealTools, HackbenchAndPerfBenchRepeatForTheWindow) {
  tools::ToolPaths paths;
  if (installed("hackbench", paths).empty() || installed("perf", paths).empty()) {
    GTEST_SKIP() << "no trusted hackbench or perf";
  }
  const RunContext ctx = context(600ms, &paths);
  const WorkloadInfo& h = find_workload("hackbench");
  const WorkloadResult hr = h.run(with_defaults(h, {{"args", "-g 1 -f 2"}}), ctx);
  expect_primary(h, hr);
  EXPECT_GE(metric(hr, "runs")->value, 1);
  const WorkloadInfo& p = find_workload("perf-bench-sched");
  expect_primary(p, p.run(with_defaults(p, {{"args", "messaging -g 1"}}), ctx));
  // pipe's primary is its rate (perf_bench_output.h).
  const WorkloadResult pr = p.run(with_defaults(p, {{"args", "pipe"}}), ctx);
  EXPECT_EQ(pr.metrics[0].name, "ops_per_s");
  EXPECT_EQ(pr.metrics[0].direction, Direction::kHigherIsBetter);
  EXPECT_GT(pr.metrics[0].value, 0);
  EXPECT_TRUE(test::no_children_left());
}

TEST(RealTools, SchbenchWhenGiven) {
  tools::ToolPaths paths;
  if (const char* env = std::getenv("SCHBENCH"); env && *env) paths.set("schbench", env);
  if (installed("schbench", paths).empty()) {
    GTEST_SKIP() << "no trusted schbench ($SCHBENCH or /usr/local/bin/schbench; "
                    "docs/workloads.md \"External tools\")";
  }
  const RunContext ctx = context(1s, &paths);
  const WorkloadInfo& w = find_workload("schbench");
  const WorkloadResult r = w.run(with_defaults(w, {{"args", "-m 1 -t 1 -n 0 -s 0"}}), ctx);
  expect_primary(w, r);
  EXPECT_NE(metric(r, "wakeup_latency_p99_us"), nullptr);
  EXPECT_TRUE(test::no_children_left());
}

}  // namespace
}  // namespace schedrig::workloads
