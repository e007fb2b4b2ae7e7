// Knobs end to end through the built binaries: lab's default plan flips
// autogroup for real and leaves it as found; a feature plan is refused up
// front (exit 3) on a machine whose debugfs is absent or locked; `run --out`
// then `import`; SIGTERM and SIGKILL mid-run on a fake root (a plain-file
// tree, so no real knob is touched there).
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/offline_file.h"
#include "tests/support/run_command.h"

extern char** environ;

namespace schedrig {
namespace {

using testing::bin;
using testing::run_command;
using testing::TempDir;
using namespace std::chrono_literals;

std::string read_trimmed(const std::string& path) {
  std::ifstream in(path);
  std::string v;
  in >> v;
  return v;
}

const char* kAutogroup = "/proc/sys/kernel/sched_autogroup_enabled";

TEST(KnobsE2E, LabFlipsAutogroupPerVariantAndLeavesItAsFound) {
  if (::access(kAutogroup, W_OK) != 0) GTEST_SKIP() << kAutogroup << " is not writable here";
  const std::string before = read_trimmed(kAutogroup);
  TempDir dir;
  auto lab = run_command(bin("schedrig") + " lab --quick --db " + dir.file("db"));
  ASSERT_EQ(lab.exit_code, 0) << lab.output;
  EXPECT_EQ(read_trimmed(kAutogroup), before);
  auto j = nlohmann::json::parse(
      run_command(bin("schedrig") + " results --json --db " + dir.file("db")).output);
  int off = 0;
  for (const auto& it : j["runs"][0]["iterations"]) {
    const std::string want = it["variant"] == "autogroup-off" ? "0" : before;
    EXPECT_EQ(it["knobs"]["kernel.sched_autogroup_enabled"], want) << it.dump();
    off += it["variant"] == "autogroup-off";
  }
  EXPECT_GT(off, 0);
}

TEST(KnobsE2E, FeaturePlanIsRefusedUpFrontWithExit3) {
  if (::access("/sys/kernel/debug/sched/features", W_OK) == 0)
    GTEST_SKIP() << "features file writable here";
  TempDir dir;
  std::ofstream(dir.file("p.yaml"))
      << "duration_s: 0.2\ncases: [{workload: fork}]\nvariants: [{name: base}, "
         "{name: no-ni-random, features: [NO_NI_RANDOM]}]\n";
  auto r = run_command(bin("schedrig") + " lab --plan " + dir.file("p.yaml") + " --db " +
                       dir.file("db"));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("/sys/kernel/debug/sched/features"), std::string::npos) << r.output;
  // The host's check names the plan's line, as `run --server` does.
  EXPECT_NE(r.output.find(dir.file("p.yaml") + ":3: key 'variants[1].features[0]'"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("iteration 1:"), std::string::npos) << "nothing may run: " << r.output;
}

// A fake knob root with plain files (how sysctls behave) and a state dir.
struct FakeTree {
  TempDir dir;
  FakeTree() {
    std::filesystem::create_directories(dir.file("root/proc/sys/kernel"));
    std::ofstream(dir.file("root/proc/sys/kernel/sched_autogroup_enabled")) << "1\n";
  }
  std::string root() const { return dir.file("root"); }
  std::string state() const { return dir.file("state"); }
  std::string value() const {
    return read_trimmed(dir.file("root/proc/sys/kernel/sched_autogroup_enabled"));
  }
  std::string plan(double duration_s) const {
    std::string p = dir.file("plan.yaml");
    std::ofstream(p)
        << "iterations: 3\nduration_s: " << duration_s
        << "\nquiet: {disturbance: false}\ncases: [{workload: fork, params: {workers: 1}}]\n"
           "variants: [{name: off, sysctl: {kernel.sched_autogroup_enabled: 0}}]\n";
    return p;
  }
};

TEST(KnobsE2E, RunOutThenImportStoresTheRunOnce) {
  FakeTree t;
  const std::string out = t.dir.file("run.schedrig"), db = t.dir.file("db");
  auto run =
      run_command(bin("schedrig-agent") + " run --plan " + t.plan(0.1) + " --out " + out +
                  " --root " + t.root() + " --state-dir " + t.state() + " --label tag=offline");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(t.value(), "1");
  auto imp = run_command(bin("schedrig") + " import " + out + " --db " + db);
  ASSERT_EQ(imp.exit_code, 0) << imp.output;
  EXPECT_NE(imp.output.find("7 envelopes stored, 0 already there"), std::string::npos)
      << imp.output;
  auto again = run_command(bin("schedrig") + " import " + out + " --db " + db);
  EXPECT_NE(again.output.find("0 envelopes stored, 7 already there"), std::string::npos)
      << again.output;
  auto j =
      nlohmann::json::parse(run_command(bin("schedrig") + " results --json --db " + db).output);
  ASSERT_EQ(j["runs"].size(), 1u);
  EXPECT_EQ(j["runs"][0]["status"], "ok");
  EXPECT_EQ(j["runs"][0]["labels"]["tag"], "offline");
  ASSERT_EQ(j["runs"][0]["iterations"].size(), 3u);
  EXPECT_EQ(j["runs"][0]["iterations"][0]["knobs"]["kernel.sched_autogroup_enabled"], "0");
}

TEST(KnobsE2E, TruncatedOfflineFileKeepsWhatCameBefore) {
  FakeTree t;
  const std::string out = t.dir.file("run.schedrig"), db = t.dir.file("db");
  ASSERT_EQ(run_command(bin("schedrig-agent") + " run --plan " + t.plan(0.05) + " --out " + out +
                        " --root " + t.root() + " --state-dir " + t.state())
                .exit_code,
            0);
  std::filesystem::resize_file(out, std::filesystem::file_size(out) - 3);
  auto imp = run_command(bin("schedrig") + " import " + out + " --db " + db);
  EXPECT_EQ(imp.exit_code, 1) << imp.output;
  EXPECT_NE(imp.output.find(out + ": record 7 at byte "), std::string::npos) << imp.output;
  EXPECT_NE(imp.output.find("truncated record"), std::string::npos) << imp.output;
  EXPECT_NE(imp.output.find("6 envelopes stored before it"), std::string::npos) << imp.output;
  EXPECT_NE(imp.output.find("is incomplete: " + out + " holds no RunFinished"), std::string::npos)
      << imp.output;
  auto j =
      nlohmann::json::parse(run_command(bin("schedrig") + " results --json --db " + db).output);
  ASSERT_EQ(j["runs"].size(), 1u);
  EXPECT_EQ(j["runs"][0]["status"], "incomplete");
  EXPECT_EQ(j["runs"][0]["iterations"].size(), 3u);
  auto text = run_command(bin("schedrig") + " results --db " + db);
  EXPECT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("incomplete"), std::string::npos) << text.output;
}

// A plan the agent rejects (a sysctl this root lacks) never touches an
// existing --out file, and leaves no temporary file beside it.
TEST(KnobsE2E, RejectedPlanLeavesAnExistingOutUntouched) {
  FakeTree t;
  const std::string out = t.dir.file("run.schedrig");
  std::ofstream(out) << "an earlier run";
  std::ofstream(t.dir.file("bad.yaml"))
      << "duration_s: 0.05\ncases: [{workload: fork, params: {workers: 1}}]\n"
         "variants: [{name: on, sysctl: {kernel.numa_balancing: 1}}]\n";
  auto run = run_command(bin("schedrig-agent") + " run --plan " + t.dir.file("bad.yaml") +
                         " --out " + out + " --root " + t.root() + " --state-dir " + t.state());
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("kernel.numa_balancing=1 cannot be changed here"), std::string::npos)
      << run.output;
  std::ifstream in(out);
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, "an earlier run");
  for (const auto& e : std::filesystem::directory_iterator(t.dir.path())) {
    EXPECT_NE(e.path().filename().string().rfind(".run.schedrig.", 0), 0u) << e.path();
  }
}

pid_t spawn_run(const FakeTree& t) {
  std::string agent = bin("schedrig-agent"), plan = t.plan(30), root = t.root(), state = t.state();
  const char* argv[] = {agent.c_str(), "run",         "--plan",      plan.c_str(), "--root",
                        root.c_str(),  "--state-dir", state.c_str(), nullptr};
  pid_t pid = -1;
  ::posix_spawn(&pid, agent.c_str(), nullptr, nullptr, const_cast<char**>(argv), environ);
  return pid;
}

bool wait_for_value(const FakeTree& t, const std::string& v) {
  for (int i = 0; i < 500 && t.value() != v; ++i) std::this_thread::sleep_for(10ms);
  return t.value() == v;
}

TEST(KnobsE2E, SigtermMidRunRestores) {
  FakeTree t;
  pid_t pid = spawn_run(t);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_for_value(t, "0")) << "the variant was never applied";
  ::kill(pid, SIGTERM);
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFEXITED(st)) << st;
  EXPECT_EQ(t.value(), "1");
  EXPECT_FALSE(std::filesystem::exists(t.state() + "/knobs-journal.json"));
}

// One agent per state dir: a second `run` on it exits 3 naming the dir and
// the first one's pid, and changes nothing.
TEST(KnobsE2E, SecondAgentOnTheSameStateDirExits3) {
  FakeTree t;
  pid_t pid = spawn_run(t);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_for_value(t, "0")) << "the variant was never applied";
  auto second = run_command(bin("schedrig-agent") + " run --plan " + t.plan(0.05) + " --root " +
                            t.root() + " --state-dir " + t.state());
  ::kill(pid, SIGTERM);
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_EQ(second.exit_code, 3) << second.output;
  EXPECT_NE(second.output.find("state dir " + t.state() +
                               " is in use by another schedrig-agent "
                               "(pid " +
                               std::to_string(pid) + ";"),
            std::string::npos)
      << second.output;
  EXPECT_EQ(t.value(), "1");  // the first restored its knob; the second never touched it
}

// `connect` takes the same lock before it dials: exit 3 naming the dir, not
// a host that cannot be reached.
TEST(KnobsE2E, ConnectOnAStateDirInUseExits3) {
  FakeTree t;
  pid_t pid = spawn_run(t);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_for_value(t, "0")) << "the variant was never applied";
  const std::string token = t.dir.file("agent.token");
  std::ofstream(token) << "e2e-token\n";
  ::chmod(token.c_str(), 0600);
  auto connect =
      run_command(bin("schedrig-agent") + " connect ws://127.0.0.1:9/agent --token-file " + token +
                  " --root " + t.root() + " --state-dir " + t.state());
  ::kill(pid, SIGTERM);
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_EQ(connect.exit_code, 3) << connect.output;
  EXPECT_NE(connect.output.find("state dir " + t.state() + " is in use"), std::string::npos)
      << connect.output;
}

// A version 1 file (varint lengths, no CRC) still imports, with a note.
TEST(KnobsE2E, VersionOneOfflineFileImportsWithANote) {
  FakeTree t;
  const std::string out = t.dir.file("run.schedrig"), v1 = t.dir.file("run-v1.schedrig");
  ASSERT_EQ(run_command(bin("schedrig-agent") + " run --plan " + t.plan(0.05) + " --out " + out +
                        " --root " + t.root() + " --state-dir " + t.state())
                .exit_code,
            0);
  {
    std::ifstream in(out, std::ios::binary);
    OfflineReader reader(in);
    std::ofstream old(v1, std::ios::binary);
    write_offline_header(old, kOfflineVarintVersion);
    while (auto bytes = reader.next()) {
      write_varint(old, bytes->size());
      old << *bytes;
    }
  }
  auto imp = run_command(bin("schedrig") + " import " + v1 + " --db " + t.dir.file("db"));
  EXPECT_EQ(imp.exit_code, 0) << imp.output;
  EXPECT_NE(imp.output.find("note: " + v1 +
                            " is a version 1 offline file: its records carry no "
                            "checksums"),
            std::string::npos)
      << imp.output;
  EXPECT_NE(imp.output.find("7 envelopes stored, 0 already there"), std::string::npos)
      << imp.output;
}

TEST(KnobsE2E, SigkillMidRunThenNextStartRestores) {
  FakeTree t;
  pid_t pid = spawn_run(t);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_for_value(t, "0"));
  ::kill(pid, SIGKILL);
  int st = 0;
  ::waitpid(pid, &st, 0);
  EXPECT_EQ(t.value(), "0");  // nobody put it back yet
  auto restore = run_command(bin("schedrig-agent") + " knobs restore --root " + t.root() +
                             " --state-dir " + t.state());
  EXPECT_EQ(restore.exit_code, 0) << restore.output;
  EXPECT_NE(restore.output.find("restored kernel.sched_autogroup_enabled=1"), std::string::npos)
      << restore.output;
  EXPECT_EQ(t.value(), "1");
}

}  // namespace
}  // namespace schedrig
