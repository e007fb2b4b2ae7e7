// The command-line contract (docs/architecture.md "Command lines"): help, exit codes,
// JSON shapes, and no stray processes after SIGINT.
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

extern char** environ;

namespace schedrig {
namespace {

using testing::bin;
using testing::run_command;
using testing::TempDir;

// A token file for `connect` (0600, as it requires) in `dir`.
std::string agent_token_file(const TempDir& dir) {
  const std::string path = dir.file("agent.token");
  std::ofstream(path) << "e2e-token\n";
  ::chmod(path.c_str(), 0600);
  return path;
}

TEST(CliE2E, EveryCommandExplainsItself) {
  for (const char* cmd :
       {"schedrig --help", "schedrig lab --help", "schedrig serve --help",
        "schedrig results --help", "schedrig agents --help", "schedrig-agent --help",
        "schedrig-agent topology --help", "schedrig-agent stress --help",
        "schedrig-agent stress fork --help", "schedrig-agent connect --help"}) {
    auto r = run_command(bin(cmd));
    EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.output;
    EXPECT_NE(r.output.find("Usage"), std::string::npos) << cmd << "\n" << r.output;
  }
  EXPECT_NE(run_command(bin("schedrig-agent stress fork --help")).output.find("--fork-max"),
            std::string::npos);
}

TEST(CliE2E, UsageErrorsExit2) {
  for (const char* cmd :
       {"schedrig", "schedrig --bogus", "schedrig lab --plan /nonexistent.yaml", "schedrig-agent",
        "schedrig-agent stress fork", "schedrig-agent stress fork --duration 1 --fork-max 0",
        "schedrig-agent stress fork --duration 1 --cpus 0-99999",
        "schedrig-agent topology --xml /nonexistent.xml",
        "schedrig-agent connect http://127.0.0.1:1/agent", "schedrig lab --quick --sample-hz nan",
        "schedrig lab --quick --sample-hz 1e-10",
        "schedrig-agent run --plan /dev/null --sample-hz 21"}) {
    auto r = run_command(bin(cmd));
    EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.output;
  }
}

// SIGINT to `schedrig serve` closes every agent connection with a close
// frame, 1001 going away, before the process goes (issue #13, contract 3):
// the agent sees a clean close that tells it to keep its run and reconnect
// to the next serve, not a torn TCP stream; its own stop signal then ends
// it with 0.
TEST(CliE2E, ServeClosesAgentsWithGoingAwayOnSigint) {
  TempDir dir;
  const std::string srv = dir.file("srv.log"), agent = dir.file("agent.log");
  const std::string script = fmt::format(
      "umask 077; {serve} token new --agent e2e --tokens {tokens} > {tok}\n"
      "{serve} serve --listen 127.0.0.1:0 --db {db} --tokens {tokens} > {srv} 2>&1 & spid=$!\n"
      "for i in $(seq 100); do grep -q 'serving on' {srv} && break; sleep 0.05; done\n"
      "{agent} connect $(grep -o 'ws://[^ ,]*' {srv}) --id e2e --token-file {tok} > {alog} 2>&1 & "
      "apid=$!\n"
      "for i in $(seq 100); do grep -q 'hello from' {srv} && break; sleep 0.05; done\n"
      "kill -INT $spid; wait $spid; echo serve_rc=$?\n"
      "for i in $(seq 100); do grep -q 'host closed the connection' {alog} && break; "
      "sleep 0.05; done\n"
      "kill -TERM $apid 2>/dev/null; wait $apid; echo agent_rc=$?\n",
      fmt::arg("serve", bin("schedrig")), fmt::arg("agent", bin("schedrig-agent")),
      fmt::arg("db", dir.file("db")), fmt::arg("srv", srv), fmt::arg("alog", agent),
      fmt::arg("tokens", dir.file("tokens")), fmt::arg("tok", dir.file("e2e.token")));
  std::ofstream(dir.file("t.sh")) << script;
  auto r = run_command("bash " + dir.file("t.sh"));
  EXPECT_NE(r.output.find("serve_rc=0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("agent_rc=0"), std::string::npos) << r.output;
  std::ifstream in(agent);
  const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(log.find("host closed the connection (1001"), std::string::npos) << log;
}

// `connect` keeps redialing a host it cannot reach; --give-up-after bounds
// that: exit 3 (never reached), naming the URL and the time.
TEST(CliE2E, UnreachableHostExits3NamingTheUrl) {
  TempDir dir;
  auto r =
      run_command(bin("schedrig-agent connect ws://127.0.0.1:1/agent --connect-timeout 2 "
                      "--give-up-after 1 --state-dir " +
                      dir.file("state") + " --token-file " + agent_token_file(dir)));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("ws://127.0.0.1:1/agent"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("giving up after 1 s"), std::string::npos) << r.output;
}

TEST(CliE2E, ResultsOnAFileThatIsNoStoreExits2) {
  TempDir dir;
  std::ofstream(dir.file("junk.db"))
      << "this is not sqlite, not even close, padding padding padding";
  auto r = run_command(bin("schedrig") + " results --db " + dir.file("junk.db"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(dir.file("junk.db")), std::string::npos) << r.output;
}

TEST(CliE2E, StressForkJsonHasTheContractKeys) {
  auto r = run_command(bin("schedrig-agent") +
                       " stress fork --workers 2 --fork-max 3 --duration 0.3 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["workload"], "fork");
  EXPECT_EQ(j["workers"], 2);
  EXPECT_EQ(j["fork_max"], 3);
  EXPECT_GT(j["bogo_ops"].get<double>(), 0);
  EXPECT_GT(j["bogo_ops_per_s"].get<double>(), 0);
  EXPECT_GE(j["duration_s"].get<double>(), 0.3);
  EXPECT_TRUE(j["cpus"].is_string());
}

// As a child subreaper, this test inherits any process the agent orphans; after
// SIGINT and the agent's exit, nothing but the agent itself may be waitable.
TEST(CliE2E, SigintLeavesNoStrayChild) {
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  std::string path = bin("schedrig-agent");
  const char* argv[] = {path.c_str(), "stress", "fork",       "--workers", "4",
                        "--fork-max", "8",      "--duration", "60",        nullptr};
  pid_t pid = 0;
  ASSERT_EQ(::posix_spawn(&pid, path.c_str(), nullptr, nullptr, const_cast<char**>(argv), environ),
            0);
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  int status = 0;
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  pid_t stray = ::waitpid(-1, &status, WNOHANG);
  EXPECT_EQ(stray, -1) << "a process outlived the agent: pid " << stray;
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

}  // namespace
}  // namespace schedrig
