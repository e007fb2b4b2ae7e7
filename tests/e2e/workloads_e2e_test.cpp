// The three workloads as a user runs them: `schedrig-agent stress NAME
// --json` (contract keys and units), parameter errors (exit 2, naming the
// parameter, value and range), SIGINT mid-run (prompt, clean exit, no process
// left behind), and every workload as a plan case through `schedrig lab`.
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

extern char** environ;

namespace schedrig {
namespace {

using testing::bin;
using testing::run_command;
using testing::TempDir;

nlohmann::json stress_json(const std::string& args) {
  auto r = run_command(bin("schedrig-agent") + " stress " + args + " --json");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.output;
  return nlohmann::json::parse(r.output);
}

TEST(WorkloadsE2E, StressWakeupJsonHasRpsAndLatencyPercentiles) {
  auto j = stress_json("wakeup --message-threads 1 --workers-per-message 2 --duration 0.3");
  EXPECT_EQ(j["workload"], "wakeup");
  EXPECT_EQ(j["message_threads"], 1);
  EXPECT_EQ(j["workers_per_message"], 2);
  EXPECT_EQ(j["think_ops"], 0);
  EXPECT_GT(j["requests_per_s"].get<double>(), 0);
  const double rps = j["requests"].get<double>() / j["duration_s"].get<double>();
  EXPECT_NEAR(j["requests_per_s"].get<double>(), rps, rps * 0.01);
  double last = 0;
  for (const char* p : {"p50", "p90", "p99", "p99_9", "max"}) {
    const double v = j[std::string("wakeup_latency_") + p + "_us"].get<double>();
    EXPECT_GE(v, last) << p;
    last = v;
  }
  EXPECT_TRUE(j.contains("request_latency_p99_us"));
}

TEST(WorkloadsE2E, StressKvJsonHasOpsAndLatency) {
  auto j = stress_json(
      "kv --clients 8 --executors 2 --read-ratio 0.95 --keys 1000 --shards 8 --duration 0.3");
  EXPECT_EQ(j["workload"], "kv");
  EXPECT_EQ(j["clients"], 8);
  EXPECT_DOUBLE_EQ(j["read_ratio"].get<double>(), 0.95);
  EXPECT_EQ(j["membind"], "local");
  EXPECT_GT(j["ops_per_s"].get<double>(), 0);
  EXPECT_EQ(j["reads"].get<double>() + j["writes"].get<double>(), j["ops"].get<double>());
  EXPECT_LE(j["op_latency_p50_us"].get<double>(), j["op_latency_p99_us"].get<double>());
}

TEST(WorkloadsE2E, StressForkPerCpuOnOnePuRecordsEveryChildOnItsCreatorsPu) {
  auto j = stress_json("fork --workers 2 --fork-max 2 --pin per-cpu --cpus 0 --duration 0.3");
  EXPECT_EQ(j["pin"], "per-cpu");
  EXPECT_EQ(j["placement_stats"], "on");
  EXPECT_GT(j["bogo_ops"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(j["same_pu_rate"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["placement_collision_rate"].get<double>(), 0.0);
}

TEST(WorkloadsE2E, BadParametersExit2NamingParameterValueAndRange) {
  struct Case {
    const char* args;
    const char* expect;
  };
  for (const Case& c : {Case{"kv --read-ratio 2", "'read_ratio' = '2': must be a number in [0, 1]"},
                        Case{"kv --membind far", "'membind' = 'far'"},
                        Case{"kv --keys 10 --shards 20", "'shards' = '20'"},
                        Case{"wakeup --message-threads 0", "'message_threads' = '0'"},
                        Case{"wakeup --think-ops -5", "'think_ops' = '-5'"},
                        Case{"fork --fork-max 16001", "[1, 16000]"},
                        Case{"fork --placement-stats maybe", "on, off"}}) {
    auto r = run_command(bin("schedrig-agent") + " stress " + c.args + " --duration 1");
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << c.args << "\n" << r.output;
  }
}

// As a child subreaper, this test inherits any process the agent orphans;
// after SIGINT and the agent's exit, nothing but the agent may be waitable,
// and /dev/shm holds what it held before.
// The agent's workload threads die with it, so a prompt exit 0 with a result
// printed means every thread was joined and every child reaped.
std::set<std::string> dev_shm() {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm", ec))
    names.insert(e.path().filename().string());
  return names;
}

void sigint_mid_run(std::vector<std::string> args) {
  const std::set<std::string> shm_before = dev_shm();
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  std::string path = bin("schedrig-agent");
  args.insert(args.begin(), path);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int out[2];
  ASSERT_EQ(::pipe(out), 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  pid_t pid = 0;
  ASSERT_EQ(::posix_spawn(&pid, path.c_str(), &fa, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&fa);
  ::close(out[1]);
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  int status = 0;
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << args[2] << " status " << status;
  std::string output;
  char buf[4096];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;) output.append(buf, n);
  ::close(out[0]);
  auto j = nlohmann::json::parse(output, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << output;
  EXPECT_EQ(j["workload"], args[2]);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  pid_t stray = ::waitpid(-1, &status, WNOHANG);
  EXPECT_EQ(stray, -1) << args[2] << ": a process outlived the agent: pid " << stray;
  EXPECT_EQ(dev_shm(), shm_before) << args[2] << ": a shared-memory segment was left in /dev/shm";
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

TEST(WorkloadsE2E, SigintMidRunLeavesNothingBehind) {
  sigint_mid_run(
      {"stress", "fork", "--workers", "4", "--fork-max", "8", "--duration", "60", "--json"});
  sigint_mid_run({"stress", "wakeup", "--message-threads", "2", "--workers-per-message", "8",
                  "--duration", "60", "--json"});
  sigint_mid_run({"stress", "kv", "--clients", "64", "--duration", "60", "--json"});
}

// Every workload runs as a plan case (plan parameter names = registry names)
// and its results carry the right units.
TEST(WorkloadsE2E, EveryWorkloadRunsFromAPlan) {
  TempDir dir;
  std::ofstream(dir.file("p.yaml")) << R"(name: workloads-e2e
iterations: 1
duration_s: 0.3
warmup_s: 0
cooldown_s: 0
quiet: {hold_s: 0.2, timeout_s: 2, disturbance: false}
cases:
  - name: fork
    workload: fork
    params: {workers: auto, fork_max: 2, pin: set}
  - name: wakeup
    workload: wakeup
    params: {message_threads: 1, workers_per_message: 2, think_ops: 0}
  - name: kv
    workload: kv
    params: {clients: 16, executors: auto, read_ratio: 0.60, keys: 1000, shards: 16, membind: local}
variants:
  - name: baseline
)";
  const std::string db = dir.file("lab.db");
  auto lab = run_command(bin("schedrig") + " lab --plan " + dir.file("p.yaml") + " --db " + db);
  ASSERT_EQ(lab.exit_code, 0) << lab.output;
  auto results = run_command(bin("schedrig") + " results --json --db " + db);
  ASSERT_EQ(results.exit_code, 0) << results.output;
  auto j = nlohmann::json::parse(results.output);
  ASSERT_EQ(j["runs"].size(), 1u);
  const std::map<std::string, std::pair<std::string, std::string>> primary = {
      {"fork", {"bogo_ops_per_s", "ops/s"}},
      {"wakeup", {"requests_per_s", "requests/s"}},
      {"kv", {"ops_per_s", "ops/s"}}};
  std::set<std::string> seen;
  for (const auto& it : j["runs"][0]["iterations"]) {
    const std::string c = it["case"];
    seen.insert(c);
    EXPECT_EQ(it["status"], "ok") << it.dump();
    ASSERT_FALSE(it["metrics"].empty()) << c;
    EXPECT_EQ(it["metrics"][0]["name"], primary.at(c).first) << c;
    EXPECT_EQ(it["metrics"][0]["unit"], primary.at(c).second) << c;
    EXPECT_EQ(it["metrics"][0]["direction"], "higher_is_better") << c;
    EXPECT_GT(it["metrics"][0]["value"].get<double>(), 0) << c;
    for (const auto& m : it["metrics"]) {
      const std::string name = m["name"];
      if (name.ends_with("_us")) {
        EXPECT_EQ(m["unit"], "us") << name;
        EXPECT_EQ(m["direction"], "lower_is_better") << name;
      }
    }
  }
  EXPECT_EQ(seen, (std::set<std::string>{"fork", "wakeup", "kv"}));
}

}  // namespace
}  // namespace schedrig
