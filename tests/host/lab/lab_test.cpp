// `schedrig lab` with stand-in agents: the exit code follows the kind of the
// failure (common/error.h), never its text.
#include "host/lab/lab.h"

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "common/exit_codes.h"
#include "host/lab/lab_driver.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::lab {
namespace {

using namespace std::chrono_literals;
using schedrig::testing::TempDir;

// An executable shell script at `path` with `body` after the #! line.
std::string script(const std::string& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

LabOptions quick_lab(const TempDir& dir, const std::string& agent) {
  LabOptions o;
  o.quick = true;
  o.db_path = dir.file("lab.db");
  o.agent = agent;
  o.connect_timeout = 300ms;
  return o;
}

TEST(LabExit, AnAgentThatNeverConnectsIsUnreachable) {
  TempDir dir;
  const LabOptions o = quick_lab(dir, script(dir.file("agent"), "exec sleep 30"));
  std::ostringstream out;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(run_lab(o, out), kExitUnreachable) << out.str();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 20s);  // the agent was stopped, not waited out
  EXPECT_NE(out.str().find("did not connect within 0.3 s"), std::string::npos) << out.str();
}

TEST(LabExit, AnAgentThatExitsAtOnceIsAFailure) {
  TempDir dir;
  const LabOptions o = quick_lab(dir, script(dir.file("agent"), "exit 0"));
  std::ostringstream out;
  EXPECT_EQ(run_lab(o, out), kExitFailed) << out.str();
  EXPECT_NE(out.str().find("before the run finished"), std::string::npos) << out.str();
}

TEST(LabExit, AgentErrorCodesHaveKinds) {
  EXPECT_EQ(kind_of_agent_error(v1::ERROR_BAD_PLAN), ErrorKind::kUsage);
  EXPECT_EQ(kind_of_agent_error(v1::ERROR_FACILITY_UNAVAILABLE), ErrorKind::kUnreachable);
  EXPECT_EQ(kind_of_agent_error(v1::ERROR_INTERNAL), ErrorKind::kFailed);
}

}  // namespace
}  // namespace schedrig::lab
