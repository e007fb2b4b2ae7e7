// External tools as cases, end to end (docs/workloads.md "External tools"):
// `schedrig lab` runs a plan of Debian's stress-ng and hackbench under the
// runner, sampler and statistics like a built-in case; a plan naming a
// tool this box lacks is refused before anything runs (exit 3); a --tool
// that is not a tool schedrig runs is a usage error (exit 2). Skips where
// the tools are not installed root-owned (scripts/setup installs them).
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::bin;
using testing::run_command;
using testing::TempDir;

bool trusted(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && st.st_uid == 0 && (st.st_mode & 022) == 0;
}

const nlohmann::json* stat_of(const nlohmann::json& samples, const std::string& name) {
  for (const auto& s : samples["stats"]) {
    if (s["name"] == name) return &s;
  }
  return nullptr;
}

TEST(ToolsE2E, StressNgAndHackbenchRunAsCasesWithSamplingAndStatistics) {
  if (!trusted("/usr/bin/stress-ng") || !trusted("/usr/bin/hackbench"))
    GTEST_SKIP() << "stress-ng or hackbench is not installed root-owned";
  TempDir dir;
  std::ofstream(dir.file("p.yaml"))
      << "name: tools\niterations: 2\nduration_s: 1\nsample_hz: 4\nquiet: {timeout_s: 0}\n"
         "cases:\n"
         "  - {name: sng, workload: stress-ng, params: {args: \"--fork 1 --fork-max 4\"}}\n"
         "  - {name: hb, workload: hackbench, params: {args: \"-g 1 -f 4\"}}\n";
  auto lab = run_command(bin("schedrig") + " lab --plan " + dir.file("p.yaml") + " --db " +
                         dir.file("db"));
  ASSERT_EQ(lab.exit_code, 0) << lab.output;
  const auto j = nlohmann::json::parse(
      run_command(bin("schedrig") + " results --json --db " + dir.file("db")).output);
  int sng = 0, hb = 0;
  for (const auto& it : j["runs"][0]["iterations"]) {
    ASSERT_EQ(it["status"], "ok") << it.dump();
    const auto& first = it["metrics"][0];
    if (it["case"] == "sng") {
      ++sng;
      EXPECT_EQ(first["name"], "bogo_ops_per_s");
      EXPECT_GT(first["value"].get<double>(), 0);
      // The sampler watched stress-ng's processes as the case's tasks.
      const auto* wait = stat_of(it["samples"], "wait_share_pct");
      ASSERT_NE(wait, nullptr) << it["samples"].dump();
      EXPECT_GT((*wait)["mean"].get<double>(), 0);
    } else {
      ++hb;
      EXPECT_EQ(first["name"], "time_s");
      EXPECT_EQ(first["direction"], "lower_is_better");
    }
  }
  EXPECT_EQ(sng, 2);
  EXPECT_EQ(hb, 2);
  EXPECT_NE(lab.output.find("time_s"), std::string::npos) << lab.output;  // compared too
}

TEST(ToolsE2E, AMissingToolRefusesThePlanBeforeAnythingRunsWithExit3) {
  TempDir dir;
  std::ofstream(dir.file("p.yaml"))
      << "iterations: 1\nduration_s: 0.2\nsample_hz: 0\nquiet: {timeout_s: 0}\n"
         "cases: [{workload: fork, params: {workers: 1}}, {name: sb, workload: schbench, "
         "params: {args: \"-m 1\"}}]\n";
  std::filesystem::create_directories(dir.file("root"));
  auto r = run_command(bin("schedrig-agent") + " run --plan " + dir.file("p.yaml") + " --out " +
                       dir.file("out") + " --root " + dir.file("root") + " --state-dir " +
                       dir.file("state") + " --run-lock " + dir.file("run.lock") +
                       " --tool schbench=/nonexistent/schbench");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("case 'sb': schbench: binary /nonexistent/schbench: No such file"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out")) &&
               std::filesystem::file_size(dir.file("out")) > 4096)
      << "iterations ran";

  r = run_command(bin("schedrig-agent") + " run --plan " + dir.file("p.yaml") +
                  " --tool sh=/bin/sh");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("'sh' is not a tool schedrig runs"), std::string::npos) << r.output;
}

TEST(ToolsE2E, ArgumentsSchedrigOwnsAreRefusedWithTheirLineByTheHostsCheck) {
  TempDir dir;
  std::ofstream(dir.file("p.yaml"))
      << "iterations: 1\nduration_s: 0.2\ncases:\n"
         "  - {name: sng, workload: stress-ng, params: {args: \"--fork 2 --timeout 60\"}}\n";
  auto r = run_command(bin("schedrig") + " lab --plan " + dir.file("p.yaml") + " --db " +
                       dir.file("db"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("stress-ng: argument '--timeout': the run time is schedrig's"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(dir.file("p.yaml") + ":4"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace schedrig
