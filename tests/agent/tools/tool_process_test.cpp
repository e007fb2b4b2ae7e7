// run_tool_process and process_group_tasks (agent/tools/tool_process.h,
// tool_tasks.h): /bin/sh stands in for a tool, so each property is seen
// from inside the child: its affinity, group, cwd and environment, and that
// nothing it started outlives its run.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "agent/tools/tool_error.h"
#include "agent/tools/tool_process.h"
#include "agent/tools/tool_tasks.h"
#include "agent/tools/tool_work_dir.h"

namespace schedrig::tools {
namespace {

using namespace std::chrono_literals;

ToolLaunch shell(const std::string& script, const std::string& dir, std::vector<int> cpus = {0}) {
  ToolLaunch l;
  l.tool = "sh";
  l.binary = "/bin/sh";
  l.argv = {"-c", script};
  l.cpus = std::move(cpus);
  l.work_dir = dir;
  return l;
}

// Whether `pid` is gone or a zombie nobody reaps (it runs no more).
bool not_running(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return true;
  return line.substr(line.rfind(')') + 2, 1) == "Z";
}

TEST(ToolProcess, RunsWithThePlacementAsItsAffinityInItsOwnGroupAndDirectory) {
  ToolWorkDir dir("sh");
  const ToolExit e = run_tool_process(
      shell("grep Cpus_allowed_list /proc/self/status; cut -d' ' -f5 /proc/$$/stat; echo $$; pwd; "
            "echo \"$HOME|$TMPDIR|$LC_ALL\"",
            dir.path()));
  ASSERT_EQ(e.exit_code, 0) << e.stderr_text;
  std::istringstream out(e.stdout_text);
  std::string affinity, pgid, pid, cwd, env;
  std::getline(out, affinity);
  std::getline(out, pgid);
  std::getline(out, pid);
  std::getline(out, cwd);
  std::getline(out, env);
  EXPECT_EQ(affinity, "Cpus_allowed_list:\t0");
  EXPECT_EQ(pgid, pid);  // its own process group
  EXPECT_NE(pgid, std::to_string(::getpgrp()));
  EXPECT_EQ(cwd, dir.path());
  EXPECT_EQ(env, dir.path() + "|" + dir.path() + "|C");
  EXPECT_FALSE(e.stopped);
  EXPECT_FALSE(e.truncated);
}

// Whatever the agent holds open without O_CLOEXEC (an inherited fd, a
// listening socket) never reaches the tool: it gets stdin, stdout, stderr.
TEST(ToolProcess, TheToolGetsNoFdButItsThree) {
  ToolWorkDir dir("sh");
  const int leaked = ::open("/dev/null", O_RDONLY);  // no O_CLOEXEC, as a careless caller would
  ASSERT_GE(leaked, 3);
  const ToolExit e = run_tool_process(shell("ls /proc/$$/fd", dir.path()));
  ::close(leaked);
  EXPECT_EQ(e.stdout_text, "0\n1\n2\n");
}

TEST(ToolProcess, KeepsTheStreamsApartAndTheExitStatus) {
  ToolWorkDir dir("sh");
  const ToolExit e = run_tool_process(shell("echo out; echo err >&2; exit 3", dir.path()));
  EXPECT_EQ(e.stdout_text, "out\n");
  EXPECT_EQ(e.stderr_text, "err\n");
  EXPECT_EQ(e.exit_code, 3);
  EXPECT_EQ(describe_exit(e), "exited with status 3");
  const ToolExit k = run_tool_process(shell("kill -9 $$", dir.path()));
  EXPECT_EQ(k.signal, SIGKILL);
  EXPECT_EQ(describe_exit(k), "killed by signal 9 (Killed)");
}

TEST(ToolProcess, StopKillsTheWholeGroupAndWhatItStarted) {
  ToolWorkDir dir("sh");
  std::atomic<bool> stop{false};
  ToolLaunch l = shell("sleep 100 & echo $!; wait", dir.path());
  l.stop = &stop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(300ms);
    stop = true;
  });
  const ToolExit e = run_tool_process(l);
  stopper.join();
  EXPECT_TRUE(e.stopped);
  EXPECT_EQ(describe_exit(e), "stopped");
  EXPECT_LT(e.wall_s, 5.0);
  EXPECT_TRUE(not_running(std::stoi(e.stdout_text)));
}

TEST(ToolProcess, WhatTheToolLeftBehindDiesWithItAndCannotHoldItsRunOpen) {
  ToolWorkDir dir("sh");
  // The background sleep keeps stdout open; the run still ends.
  const ToolExit e = run_tool_process(shell("sleep 100 & echo $!", dir.path()));
  EXPECT_EQ(e.exit_code, 0);
  EXPECT_LT(e.wall_s, 5.0);
  EXPECT_TRUE(not_running(std::stoi(e.stdout_text)));
}

// A child that leaves the group (setsid) and outlives its parent is adopted
// by the agent while the tool runs, then killed and reaped.
TEST(ToolProcess, WhatLeftTheGroupWithSetsidDiesWithTheRunToo) {
  ToolWorkDir dir("sh");
  const ToolExit e =
      run_tool_process(shell("setsid sleep 97.31 </dev/null >/dev/null 2>&1 & echo $!; "
                             "(setsid sh -c 'sleep 97.32' </dev/null >/dev/null 2>&1 &); sleep 0.2",
                             dir.path()));
  EXPECT_EQ(e.exit_code, 0);
  EXPECT_LT(e.wall_s, 5.0);
  EXPECT_TRUE(not_running(std::stoi(e.stdout_text)));
  // Nothing of either is left, not even a zombie of ours.
  std::string left;
  for (const auto& p : std::filesystem::directory_iterator("/proc")) {
    std::ifstream cmd(p.path() / "cmdline");
    std::string c;
    std::getline(cmd, c, '\0');
    std::string arg;
    std::getline(cmd, arg, '\0');
    if (c == "sleep" && (arg == "97.31" || arg == "97.32"))
      left += p.path().filename().string() + " ";
  }
  EXPECT_EQ(left, "");
  int was = 1;
  ::prctl(PR_GET_CHILD_SUBREAPER, &was);
  EXPECT_EQ(was, 0);  // the agent is a subreaper only while a tool runs
}

TEST(ToolProcess, ATimeoutKillsItAndSaysSo) {
  ToolWorkDir dir("sh");
  ToolLaunch l = shell("sleep 100", dir.path());
  l.timeout = 200ms;
  const ToolExit e = run_tool_process(l);
  EXPECT_TRUE(e.timed_out);
  EXPECT_EQ(e.signal, SIGKILL);
  EXPECT_EQ(describe_exit(e), "did not exit within its time limit (killed)");
}

TEST(ToolProcess, OutputPastTheBoundIsDroppedAndFlagged) {
  ToolWorkDir dir("sh");
  ToolLaunch l = shell("head -c 100000 /dev/zero; echo tail >&2", dir.path());
  l.max_output_bytes = 1000;
  const ToolExit e = run_tool_process(l);
  EXPECT_EQ(e.exit_code, 0);
  EXPECT_TRUE(e.truncated);
  EXPECT_EQ(e.stdout_text.size(), 1000U);
  EXPECT_EQ(e.stderr_text, "tail\n");
}

TEST(ToolProcess, AToolThatCannotStartNamesTheStepAndTheReason) {
  ToolWorkDir dir("sh");
  ToolLaunch l = shell("true", dir.path());
  l.binary = "/nonexistent/tool";
  try {
    run_tool_process(l);
    FAIL() << "no error";
  } catch (const ToolRunError& e) {
    EXPECT_STREQ(e.what(), "sh: cannot exec /nonexistent/tool: No such file or directory");
  }
  ToolLaunch far = shell("true", dir.path(), {CPU_SETSIZE - 1});
  try {
    run_tool_process(far);
    FAIL() << "no error";
  } catch (const ToolRunError& e) {
    EXPECT_STREQ(e.what(),
                 "sh: cannot set its affinity to the placement /bin/sh: Invalid argument");
  }
  EXPECT_THROW(run_tool_process(shell("true", dir.path(), {-1})), ToolRunError);
}

TEST(ToolProcess, StartedSeesTheRunningGroupAndItsThreads) {
  ToolWorkDir dir("sh");
  ToolLaunch l = shell("sleep 0.5 & sleep 0.5; wait", dir.path());
  std::vector<procfs::TaskId> tasks;
  pid_t leader = 0;
  l.started = [&](pid_t pid) {
    leader = pid;
    tasks = settled_group_tasks(pid, 20ms, 400ms);
  };
  run_tool_process(l);
  ASSERT_GT(leader, 0);
  // The shell and its two sleeps, one thread each.
  ASSERT_EQ(tasks.size(), 3U);
  EXPECT_EQ(tasks[0].pid, leader);
  EXPECT_EQ(tasks[0].tid, leader);
  for (const auto& t : tasks) EXPECT_EQ(t.pid, t.tid);
}

// A mount the tool made inside its directory is left alone, never emptied.
TEST(ToolWorkDirRemoval, NeverEntersAnotherFileSystem) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to bind-mount";
  namespace fs = std::filesystem;
  ToolWorkDir victim("victim");
  std::ofstream(fs::path(victim.path()) / "keep.txt") << "precious\n";
  std::string mount_point;
  {
    ToolWorkDir dir("sh");
    mount_point = dir.path() + "/m";
    fs::create_directory(mount_point);
    if (::system(("mount --bind " + victim.path() + " " + mount_point + " 2>/dev/null").c_str()) !=
        0)
      GTEST_SKIP() << "mount --bind is not allowed here";
    std::ofstream(dir.path() + "/out.txt") << "tool output\n";
  }
  EXPECT_TRUE(fs::exists(fs::path(victim.path()) / "keep.txt"));
  EXPECT_FALSE(fs::exists(fs::path(mount_point).parent_path() / "out.txt"));
  EXPECT_EQ(::system(("umount " + mount_point).c_str()), 0);
  std::error_code ec;
  fs::remove_all(fs::path(mount_point).parent_path(), ec);
}

TEST(ToolTasks, ReadsTheGroupFromProcStatPastACommandNameWithParentheses) {
  ToolWorkDir root("proc");
  namespace fs = std::filesystem;
  const auto add = [&](int pid, const std::string& comm, int pgrp, std::vector<int> tids) {
    fs::create_directories(fs::path(root.path()) / std::to_string(pid) / "task");
    std::ofstream(fs::path(root.path()) / std::to_string(pid) / "stat")
        << pid << " (" << comm << ") S 1 " << pgrp << " " << pgrp << " 0 -1\n";
    for (int t : tids)
      fs::create_directories(fs::path(root.path()) / std::to_string(pid) / "task" /
                             std::to_string(t));
  };
  add(10, "stress-ng", 10, {10});
  add(12, "a) S 1 12 (b", 10, {12, 14, 13});
  add(20, "other", 20, {20});
  fs::create_directories(fs::path(root.path()) / "self");
  const std::vector<procfs::TaskId> t = process_group_tasks(10, root.path());
  ASSERT_EQ(t.size(), 4U);
  EXPECT_EQ(t[0], (procfs::TaskId{10, 10}));
  EXPECT_EQ(t[1], (procfs::TaskId{12, 12}));
  EXPECT_EQ(t[2], (procfs::TaskId{12, 13}));
  EXPECT_EQ(t[3], (procfs::TaskId{12, 14}));
  EXPECT_TRUE(process_group_tasks(99, root.path()).empty());
}

}  // namespace
}  // namespace schedrig::tools
