// A fake /proc tree for tests and benches: N PUs, /proc/stat,
// /proc/schedstat (v15/16/17, 1-3 domains per CPU), /proc/vmstat,
// /proc/pressure/cpu, /proc/loadavg and per-thread schedstat files, whose
// counters advance by FakeStep. Files are rewritten in place (O_TRUNC), not
// renamed, so a reader holding them open sees the new text.
// Library schedrig_sampler_fake (not linked into the agent).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <vector>

namespace schedrig::sampler {

struct FakeProcOptions {
  int pus = 2;
  int nodes = 1;                    // PUs split evenly, in order
  int domains = 2;                  // schedstat domain lines per CPU (1-3)
  unsigned schedstat_version = 16;  // 0: no /proc/schedstat
  bool pressure = true;
  bool pressure_full = true;  // false: only the "some" line (pre-5.13)
  bool vmstat = true;
};

// What happens during one step, on every online PU unless stated.
struct FakeStep {
  double seconds = 1;
  double busy_pct = 50;   // user time; the rest is idle
  double iowait_pct = 0;  // taken from the idle share
  std::uint64_t ctxt = 1000, intr = 500, forks = 10;
  std::uint32_t procs_running = 1, procs_blocked = 0;  // at the step's end
  std::uint64_t newidle_lb = 100;                      // per CPU, counted in domain 0
  std::uint64_t newidle_failed = 10;                   // per CPU
  std::uint64_t run_delay_ns = 1'000'000;              // per CPU
  std::uint64_t psi_some_us = 0;
  std::uint64_t numa_miss = 0, numa_pages_migrated = 0;
  double load1 = 0.5;
};

class FakeProc {
 public:
  // Creates root/proc and writes every file with zero-based counters.
  FakeProc(std::filesystem::path root, FakeProcOptions options);
  void step(const FakeStep& s);            // advances and rewrites the files
  void set_online(int pu, bool online);    // an offline PU has no lines; rewrites
  void add_task(pid_t pid, pid_t tid);     // writes "0 0 1"
  void remove_task(pid_t pid, pid_t tid);  // the thread exited
  void step_task(pid_t tid, std::uint64_t run_ns, std::uint64_t wait_ns, std::uint64_t slices = 1);
  void write() const;
  const std::filesystem::path& root() const { return root_; }
  std::vector<int> pu_to_node() const;

 private:
  struct Pu {
    bool online = true;
    double user_ticks = 0, idle_ticks = 0, iowait_ticks = 0;
    std::uint64_t sched_count = 0, ttwu = 0, run_ns = 0, delay_ns = 0, slices = 0;
    std::uint64_t newidle_lb = 0, newidle_failed = 0, newidle_gained = 0, busy_lb = 0;
  };
  struct Task {
    pid_t pid = 0;
    std::uint64_t run_ns = 0, wait_ns = 0, slices = 1;
  };
  void write_stat() const;
  void write_schedstat() const;
  void write_vmstat() const;
  void write_pressure() const;
  void write_loadavg() const;
  void write_task(pid_t tid, const Task& t) const;

  std::filesystem::path root_;
  FakeProcOptions o_;
  std::vector<Pu> pus_;
  std::map<pid_t, Task> tasks_;
  std::uint64_t ctxt_ = 0, intr_ = 0, forks_ = 0, psi_us_ = 0, numa_miss_ = 0, migrated_ = 0;
  std::uint32_t running_ = 1, blocked_ = 0;
  double load1_ = 0;
  std::uint64_t jiffies_ = 4294667296ULL;
};

// Writes `text` into `path` in place (open O_TRUNC, one write).
void write_file_in_place(const std::filesystem::path& path, const std::string& text);

}  // namespace schedrig::sampler
