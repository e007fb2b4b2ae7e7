// The machine-wide run lock through the built `schedrig-agent run`
// (common/run_lock.h, docs/architecture.md "Runner safety"): two knob-free
// runs on one box never overlap, the second says whom it waits for, and a
// lock directory or file that cannot be trusted is refused with exit 2.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "common/envelope_codec.h"
#include "common/offline_file.h"
#include "tests/support/child_process.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

namespace fs = std::filesystem;
namespace v1 = schedrig::v1;
using namespace std::chrono_literals;
using testing::bin;
using testing::ChildProcess;
using testing::TempDir;

// A tiny knob-free plan: no quiet wait, no sampling.
const char* kPlan =
    "iterations: 3\nduration_s: 0.3\nsample_hz: 0\nquiet: {timeout_s: 0}\n"
    "cases: [{workload: fork, params: {workers: 1}}]\n";

// kPlan with 2 s iterations: the run that holds the lock while another waits.
const char* kLongPlan =
    "iterations: 3\nduration_s: 2\nsample_hz: 0\nquiet: {timeout_s: 0}\n"
    "cases: [{workload: fork, params: {workers: 1}}]\n";

struct Window {
  std::int64_t start_ns, end_ns;
};

// The run id and iteration windows of an offline file.
struct RunFile {
  std::string run_id;
  std::vector<Window> windows;
};

RunFile read_run(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  OfflineReader reader(in);
  RunFile out;
  while (auto bytes = reader.next()) {
    const DecodeResult d = decode_envelope(*bytes);
    if (!d.envelope) continue;
    if (d.envelope->has_run_started()) out.run_id = d.envelope->run_started().run_id();
    if (d.envelope->has_iteration_result()) {
      const auto& r = d.envelope->iteration_result();
      out.windows.push_back({static_cast<std::int64_t>(r.started_at_ns()),
                             static_cast<std::int64_t>(r.finished_at_ns())});
    }
  }
  return out;
}

// `schedrig-agent run` of the plan in t's file `plan` (kPlan's plan.yaml by
// default) on a fake root with its own state dir.
std::vector<std::string> run_args(const TempDir& t, const std::string& name,
                                  const std::string& lock, const std::string& plan = "plan.yaml") {
  fs::create_directories(t.file("root-" + name));
  return {bin("schedrig-agent"),
          "run",
          "--plan",
          t.file(plan),
          "--out",
          t.file(name + ".schedrig"),
          "--root",
          t.file("root-" + name),
          "--state-dir",
          t.file("state-" + name),
          "--run-lock",
          lock};
}

TEST(RunLockCli, TwoKnobFreeRunsNeverOverlapAndTheSecondSaysItWaits) {
  TempDir t;
  std::ofstream(t.file("plan.yaml")) << kPlan;
  const std::string lock = t.file("locks/run.lock");
  // The first run is long (3 x 2 s) so the second reaches the lock while it
  // runs, even when starting a process takes seconds on a loaded box.
  std::ofstream(t.file("long.yaml")) << kLongPlan;
  ChildProcess a(run_args(t, "a", lock, "long.yaml"), t.file("a.log"));
  // Its first progress line: it holds the lock.
  ASSERT_TRUE(a.wait_for_log(" starts: plan", 10s)) << a.log();
  ChildProcess b(run_args(t, "b", lock), t.file("b.log"));
  ASSERT_EQ(a.wait_for_exit(60s), 0) << a.log();
  ASSERT_EQ(b.wait_for_exit(60s), 0) << b.log();

  const RunFile ra = read_run(t.file("a.schedrig"));
  const RunFile rb = read_run(t.file("b.schedrig"));
  ASSERT_EQ(ra.windows.size(), 3u);
  ASSERT_EQ(rb.windows.size(), 3u);
  for (const Window& x : ra.windows) {
    for (const Window& y : rb.windows) {
      EXPECT_TRUE(x.end_ns <= y.start_ns || y.end_ns <= x.start_ns)
          << "iterations overlap: [" << x.start_ns << ", " << x.end_ns << "] and [" << y.start_ns
          << ", " << y.end_ns << "]";
    }
  }
  const std::string said = "waiting for run lock held by pid " + std::to_string(a.pid()) +
                           " (run " + ra.run_id + ", since ";
  EXPECT_NE(b.log().find(said), std::string::npos) << b.log();
  EXPECT_NE(b.log().find("took the run lock after "), std::string::npos) << b.log();
  EXPECT_EQ(a.log().find("waiting for run lock"), std::string::npos) << a.log();
}

TEST(RunLockCli, AWaitThatRunsOutIsExit3NamingTheHolder) {
  TempDir t;
  std::ofstream(t.file("plan.yaml")) << "iterations: 1\nduration_s: 3\nsample_hz: 0\n"
                                        "quiet: {timeout_s: 0}\n"
                                        "cases: [{workload: fork, params: {workers: 1}}]\n";
  const std::string lock = t.file("locks/run.lock");
  ChildProcess a(run_args(t, "a", lock), t.file("a.log"));
  ASSERT_TRUE(a.wait_for_log(" starts: plan", 10s)) << a.log();
  auto args = run_args(t, "b", lock);
  args.insert(args.end(), {"--run-lock-timeout", "0.5"});
  ChildProcess b(args, t.file("b.log"));
  EXPECT_EQ(b.wait_for_exit(20s), 3) << b.log();
  EXPECT_NE(b.log().find("run lock " + lock + " still held by pid " + std::to_string(a.pid())),
            std::string::npos)
      << b.log();
  EXPECT_FALSE(fs::exists(t.file("b.schedrig")));  // nothing ran, nothing written
  EXPECT_EQ(a.wait_for_exit(60s), 0) << a.log();
}

TEST(RunLockCli, AnUntrustedLockDirectoryOrAPlantedLinkIsExit2) {
  TempDir t;
  std::ofstream(t.file("plan.yaml")) << kPlan;
  fs::create_directories(t.file("shared"));
  ASSERT_EQ(::chmod(t.file("shared").c_str(), 01777), 0);
  auto r = testing::run_command(bin("schedrig-agent") + " run --plan " + t.file("plan.yaml") +
                                " --root " + t.path() + " --state-dir " + t.file("state") +
                                " --run-lock " + t.file("shared/run.lock"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(t.file("shared") + " is writable by group or others (mode 1777)"),
            std::string::npos)
      << r.output;

  fs::create_directories(t.file("locks"));
  std::ofstream(t.file("victim")) << "precious\n";
  fs::create_symlink(t.file("victim"), t.file("locks/run.lock"));
  r = testing::run_command(bin("schedrig-agent") + " run --plan " + t.file("plan.yaml") +
                           " --root " + t.path() + " --state-dir " + t.file("state") +
                           " --run-lock " + t.file("locks/run.lock"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("cannot open lock " + t.file("locks/run.lock")), std::string::npos)
      << r.output;
  std::ifstream in(t.file("victim"));
  std::string v;
  in >> v;
  EXPECT_EQ(v, "precious");
}

TEST(RunLockCli, ATimeoutThatIsNotANumberOfSecondsIsExit2) {
  TempDir t;
  std::ofstream(t.file("plan.yaml")) << kPlan;
  for (const char* bad : {"nan", "NaN", "-1", "inf", "1e9"}) {
    auto r = testing::run_command(bin("schedrig-agent") + " run --plan " + t.file("plan.yaml") +
                                  " --root " + t.path() + " --state-dir " + t.file("state") +
                                  " --run-lock " + t.file("locks/run.lock") +
                                  " --run-lock-timeout " + bad + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("--run-lock-timeout '" + std::string(bad) + "'"), std::string::npos)
        << r.output;
  }
}

}  // namespace
}  // namespace schedrig
