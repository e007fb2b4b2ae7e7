// `schedrig lab --quick` end to end: a real agent process, a real WebSocket on
// loopback, a real SQLite file, checked through `schedrig results --json`.
#include <unistd.h>

#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/ids.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::bin;
using testing::run_command;
using testing::TempDir;

long online_pus() { return ::sysconf(_SC_NPROCESSORS_ONLN); }

TEST(LabE2E, QuickRunIsStoredAndReadableAsJson) {
  TempDir dir;
  const std::string db = dir.file("lab.db");
  // The gate's options (host/cli/gate_options.h): no change of 1000% fails it.
  // Other tests load the box (ctest -j2), so iterations may be disturbed:
  // counted, or a gate with nothing left to judge would fail.
  auto lab = run_command(bin("schedrig") + " lab --quick --db " + db +
                         " --label tag=e2e --disturbed include --fail-on regression --all-metrics "
                         "--threshold 1000");
  ASSERT_EQ(lab.exit_code, 0) << lab.output;
  EXPECT_EQ(lab.output.find("gate:"), std::string::npos) << lab.output;
  EXPECT_NE(lab.output.find("Threshold 1000%."), std::string::npos) << lab.output;
  EXPECT_NE(lab.output.find(") connected\nrun "), std::string::npos) << lab.output;
  EXPECT_NE(lab.output.find("stored in " + db), std::string::npos) << lab.output;

  auto results = run_command(bin("schedrig") + " results --json --db " + db);
  ASSERT_EQ(results.exit_code, 0) << results.output;
  auto j = nlohmann::json::parse(results.output);
  ASSERT_EQ(j["runs"].size(), 1u);
  const auto& run = j["runs"][0];
  EXPECT_TRUE(is_uuid(run["run_id"].get<std::string>()));
  EXPECT_EQ(run["hostname"], host_name());
  EXPECT_EQ(run["kernel_release"], kernel_release());
  EXPECT_EQ(run["pus"], online_pus());
  EXPECT_EQ(run["labels"]["tag"], "e2e");
  EXPECT_EQ(run["status"], "ok");

  const auto& plan = run["plan"];
  const std::size_t expected =
      plan["cases"].size() * plan["variants"].size() * plan["iterations"].get<std::size_t>();
  EXPECT_EQ(plan["iterations"], 2);  // --quick
  EXPECT_DOUBLE_EQ(plan["duration_s"].get<double>(), 0.5);
  ASSERT_EQ(run["iterations"].size(), expected);
  for (const auto& it : run["iterations"]) {
    EXPECT_EQ(it["status"], "ok");
    ASSERT_FALSE(it["metrics"].empty());
    const auto& primary = it["metrics"][0];
    EXPECT_GT(primary["value"].get<double>(), 0) << it.dump();
    EXPECT_TRUE(primary["direction"] == "higher_is_better" ||
                primary["direction"] == "lower_is_better");
  }
  // Sampled: every ok iteration carries its sample summary and quiet-box
  // wait (--quick: 4 Hz over 0.5 s, 0.2 s hold), and lab printed them.
  unsigned samples = 0;
  for (const auto& it : run["iterations"]) {
    ASSERT_TRUE(it.contains("samples")) << it.dump();
    samples += it["samples"]["count"].get<unsigned>();
    // At most one per 1/4 s of the iteration's wall time (set-up included: a
    // loaded or sanitized box is slow to start the workload), plus the one
    // the window's close takes.
    const double wall_s = static_cast<double>(it["finished_at_ns"].get<long long>() -
                                              it["started_at_ns"].get<long long>()) /
                          1e9;
    EXPECT_LE(it["samples"]["count"].get<unsigned>(), static_cast<unsigned>(wall_s * 4) + 1)
        << it.dump();
    EXPECT_GE(it["quiet_wait_s"].get<double>(), 0.2) << it.dump();
  }
  EXPECT_GE(samples, expected / 2) << "about one sample per 0.5 s iteration at 4 Hz";
  EXPECT_NE(lab.output.find("sampled, per variant"), std::string::npos) << lab.output;
  EXPECT_NE(lab.output.find("quiet box: "), std::string::npos) << lab.output;

  // The agent's topology went into the store: `schedrig agents` shows it.
  auto agents = run_command(bin("schedrig") + " agents --json --db " + db);
  ASSERT_EQ(agents.exit_code, 0) << agents.output;
  auto a = nlohmann::json::parse(agents.output);
  ASSERT_EQ(a["agents"].size(), 1u) << agents.output;
  EXPECT_EQ(a["agents"][0]["hostname"], host_name());
  EXPECT_EQ(a["agents"][0]["runs"], 1);
  EXPECT_EQ(a["agents"][0]["topology"]["pus"], online_pus());
  EXPECT_GE(a["agents"][0]["topology"]["packages"].get<int>(), 1);
  EXPECT_GE(a["agents"][0]["topology"]["numa_nodes"].get<int>(), 1);

  // A progress line per iteration, e.g. "[2/2] fork-all / baseline / iteration 2: 8,216 ops/s".
  EXPECT_NE(lab.output.find(fmt::format("[{}/{}]", expected, expected)), std::string::npos)
      << lab.output;
}

// `schedrig watch` follows a run that lab is writing: one line per sample
// and per iteration as they arrive, exit 0 when the run ends.
TEST(LabE2E, WatchFollowsARunWhileLabWritesIt) {
  TempDir dir;
  const std::string db = dir.file("lab.db");
  std::ofstream(dir.file("p.yaml"))
      << "name: watched\niterations: 2\nduration_s: 1.5\n"
         "sample_hz: 4\nquiet: {hold_s: 0.1, timeout_s: 1, disturbance: false}\n"
         "cases: [{name: forks, workload: fork}]\n";
  testing::CommandResult lab;
  std::thread lab_thread([&] {
    lab = run_command(bin("schedrig") + " lab --plan " + dir.file("p.yaml") + " --db " + db);
  });
  // watch needs the run's RunStarted stored: wait for it (lab's first second).
  bool started = false;
  for (int i = 0; i < 200 && !started; ++i) {
    auto r = run_command(bin("schedrig") + " results --json --db " + db + " 2>/dev/null");
    started = r.exit_code == 0 && !nlohmann::json::parse(r.output)["runs"].empty();
    if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  auto watch = run_command(bin("schedrig") + " watch --db " + db + " --poll-ms 100");
  lab_thread.join();
  ASSERT_TRUE(started) << lab.output;
  ASSERT_EQ(lab.exit_code, 0) << lab.output;
  EXPECT_EQ(watch.exit_code, 0) << watch.output;
  // 2 iterations x 1.5 s at 4 Hz: about 5 samples each, all of case "forks".
  std::size_t sample_lines = 0;
  for (std::size_t at = 0; (at = watch.output.find(" forks ", at)) != std::string::npos; ++at)
    ++sample_lines;
  EXPECT_GE(sample_lines, 6u) << watch.output;
  EXPECT_NE(watch.output.find("[1/2] forks / baseline / iteration 1: "), std::string::npos)
      << watch.output;
  EXPECT_NE(watch.output.find("[2/2] forks / baseline / iteration 2: "), std::string::npos)
      << watch.output;
}

TEST(LabE2E, BadPlanNamesKeyAndLineAndExits2) {
  TempDir dir;
  std::ofstream(dir.file("bad.yaml"))
      << "name: x\niteratons: 3\nduration_s: 1\ncases: [{workload: fork}]\n";
  auto r = run_command(bin("schedrig") + " lab --plan " + dir.file("bad.yaml") + " --db " +
                       dir.file("db"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("bad.yaml:2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("iteratons"), std::string::npos) << r.output;
}

TEST(LabE2E, PlanTheAgentRejectsExits2WithItsReason) {
  TempDir dir;
  std::ofstream(dir.file("p.yaml")) << "duration_s: 0.1\ncases: [{name: c, workload: fork, params: "
                                       "{fork_max: 0}}]\n";
  auto r = run_command(bin("schedrig") + " lab --plan " + dir.file("p.yaml") + " --db " +
                       dir.file("db"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("'fork_max' = '0'"), std::string::npos) << r.output;
}

TEST(LabE2E, MissingAgentBinaryIsNamed) {
  TempDir dir;
  auto r = run_command(bin("schedrig") + " lab --quick --agent /nonexistent/agent --db " +
                       dir.file("db"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/nonexistent/agent"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace schedrig
