// Other processes' CPU from /proc/PID/stat scans (agent/sampler/process_cpu.h)
// and how it caps the window's busy-minus-own share (disturbance.h).
#include "agent/sampler/process_cpu.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "agent/sampler/disturbance.h"
#include "agent/sampler/proc_stat.h"
#include "tests/support/run_command.h"

namespace schedrig::sampler {
namespace {

// A stat line: comm with a space and a ')', then fields 3-22 with ppid,
// flags, utime/stime/cutime/cstime (ticks) and starttime as given.
std::string stat_line(pid_t pid, pid_t ppid, unsigned long long flags, int utime, int stime,
                      int cutime, int cstime, unsigned long long start) {
  return fmt::format("{} (a b) c) S {} {} {} 0 -1 {} 0 0 0 0 {} {} {} {} 20 0 1 0 {} 1000 10\n",
                     pid, ppid, pid, pid, flags, utime, stime, cutime, cstime, start);
}

ProcessCpu proc(pid_t pid, pid_t ppid, std::uint64_t cpu_ms, std::uint64_t start = 1,
                bool kthread = false) {
  return {pid, ppid, start, kthread, cpu_ms * 1'000'000};
}

TEST(ProcessCpu, ParsesPpidFlagsCpuAndStartTime) {
  const auto p = parse_process_cpu(42, stat_line(42, 7, 0x400100, 10, 20, 30, 40, 555), 100);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->pid, 42);
  EXPECT_EQ(p->ppid, 7);
  EXPECT_FALSE(p->kernel_thread);
  EXPECT_EQ(p->start_ticks, 555u);
  EXPECT_EQ(p->cpu_ns, 1'000'000'000u);  // 100 ticks at 100 Hz
  const auto k = parse_process_cpu(2, stat_line(2, 0, 0x208040, 0, 5, 0, 0, 1), 100);
  ASSERT_TRUE(k);
  EXPECT_TRUE(k->kernel_thread);
  EXPECT_FALSE(parse_process_cpu(1, "1 (x) S 0 1 1\n", 100));
  EXPECT_FALSE(parse_process_cpu(1, "no parenthesis", 100));
}

TEST(ProcessCpu, CountsOtherUserProcessesOnly) {
  const pid_t own = 100;
  const std::vector<ProcessCpu> before = {proc(1, 0, 50), proc(100, 1, 10), proc(101, 100, 5),
                                          proc(200, 1, 1000), proc(3, 2, 70, 1, true)};
  const std::vector<ProcessCpu> after = {proc(1, 0, 60),       // init: +10 ms
                                         proc(100, 1, 900),    // the agent itself
                                         proc(101, 100, 800),  // its workload's creator
                                         proc(102, 101, 300),  // a grandchild started in the window
                                         proc(200, 1, 1250),   // another user's job: +250 ms
                                         proc(201, 200, 40),   // its new child: all 40 ms
                                         proc(3, 2, 500, 1, true)};  // a kernel thread: left out
  EXPECT_EQ(other_processes_cpu_ns(before, after, own), 300'000'000u);
}

TEST(ProcessCpu, AReusedPidIsANewProcess) {
  // pid 200 ended and a new process took the pid: all its 30 ms count, not 30 - 1000.
  EXPECT_EQ(other_processes_cpu_ns({proc(200, 1, 1000, 5)}, {proc(200, 1, 30, 9)}, 100),
            30'000'000u);
  // A parent chain that loops never counts as the agent's, and ends.
  EXPECT_EQ(other_processes_cpu_ns({}, {proc(300, 301, 10), proc(301, 300, 10)}, 100), 20'000'000u);
}

TEST(ProcessCpu, ScansAProcTreeAndSkipsWhatIsNotAProcess) {
  schedrig::testing::TempDir tmp;
  const std::filesystem::path proc_dir = std::filesystem::path(tmp.path()) / "proc";
  const long hz = user_hz();
  for (const auto& [pid, line] :
       {std::pair{7, stat_line(7, 1, 0, static_cast<int>(hz), 0, 0, 0, 3)},
        std::pair{8, std::string("garbage\n")}}) {
    std::filesystem::create_directories(proc_dir / std::to_string(pid));
    std::ofstream(proc_dir / std::to_string(pid) / "stat") << line;
  }
  std::filesystem::create_directories(proc_dir / "self");
  std::filesystem::create_directories(proc_dir / "9");  // no stat: ended meanwhile
  const auto scan = scan_processes(procfs::Root::under(tmp.path()));
  ASSERT_EQ(scan.size(), 1u);
  EXPECT_EQ(scan[0].pid, 7);
  EXPECT_EQ(scan[0].cpu_ns, 1'000'000'000u);
  EXPECT_EQ(scan_processes(procfs::Root::under(tmp.path()), 0).size(), 0u);
}

TEST(ProcessCpu, TheLiveMachineHasThisProcessAsItsOwn) {
  const auto scan = scan_processes(procfs::Root::live());
  EXPECT_TRUE(std::any_of(scan.begin(), scan.end(),
                          [](const ProcessCpu& p) { return p.pid == ::getpid(); }));
  // Nothing this process does counts as another's.
  const auto self = [&] {
    std::vector<ProcessCpu> mine;
    for (const ProcessCpu& p : scan)
      if (p.pid == ::getpid()) mine.push_back(p);
    return mine;
  }();
  std::vector<ProcessCpu> later = self;
  later[0].cpu_ns += 5'000'000'000;
  EXPECT_EQ(other_processes_cpu_ns(self, later, ::getpid()), 0u);
}

TEST(Disturbance, TheProcessScanCapsBusyMinusOwn) {
  WindowLoad fork_storm;
  fork_storm.intervals = 8;
  fork_storm.other_cpu_pct = 14.0;  // teardown work no workload task is charged for
  apply_process_scan(fork_storm, 40'000'000, 2.0, 2);  // 40 ms of 4 s: 1%
  ASSERT_TRUE(fork_storm.other_processes_cpu_pct);
  EXPECT_NEAR(*fork_storm.other_processes_cpu_pct, 1.0, 1e-9);
  EXPECT_NEAR(fork_storm.other_cpu_pct, 1.0, 1e-9);
  EXPECT_EQ(disturbance_reason(fork_storm, {}), "");

  WindowLoad compile;
  compile.intervals = 8;
  compile.other_cpu_pct = 30.0;
  apply_process_scan(compile, 2'400'000'000, 2.0, 2);  // 60% by the scan: the busy share stays
  EXPECT_NEAR(compile.other_cpu_pct, 30.0, 1e-9);
  EXPECT_EQ(disturbance_reason(compile, {}), "other work: 30.0% CPU of other processes (> 5%)");

  WindowLoad unscanned;
  unscanned.other_cpu_pct = 9;
  apply_process_scan(unscanned, 0, 0, 2);
  EXPECT_FALSE(unscanned.other_processes_cpu_pct);
  EXPECT_EQ(unscanned.other_cpu_pct, 9);
}

}  // namespace
}  // namespace schedrig::sampler
