// What the sampler reports: one DerivedSample per interval between two
// snapshots of /proc, and the summary of an iteration's samples
// (issue #6; docs/architecture.md "Results model": the sample summary).
// Rates are per second of the interval; shares are percentages 0..100.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedrig::sampler {

// Busy share of one NUMA node's PUs in an interval.
struct NodeBusy {
  int node = 0;         // NUMA node OS index
  double busy_pct = 0;  // 100 - idle% - iowait% over the node's online PUs
};

// Values derived from two consecutive snapshots. Optional fields are empty
// when their source is missing (no /proc/schedstat, no PSI, no workload
// threads registered) — never guessed.
struct DerivedSample {
  std::int64_t t_ns = 0;  // wall clock (CLOCK_REALTIME) at the interval's end
  double interval_s = 0;  // measured length (CLOCK_MONOTONIC)
  double idle_pct = 0;    // (idle + iowait) / total over the watched PUs
  std::vector<NodeBusy> busy_per_node;
  double ctxt_per_s = 0;                     // /proc/stat ctxt delta
  double intr_per_s = 0;                     // /proc/stat intr (first field) delta
  double forks_per_s = 0;                    // /proc/stat processes delta
  std::uint32_t runnable = 0;                // /proc/stat procs_running at the interval's end
  std::uint32_t blocked = 0;                 // /proc/stat procs_blocked at the interval's end
  std::optional<double> wait_share_pct;      // workload threads: wait / (run + wait)
  std::optional<double> newidle_lb_per_s;    // schedstat CPU_NEWLY_IDLE lb_count delta
  std::optional<double> newidle_failed_pct;  // lb_failed / lb_count of newly-idle balances
  std::optional<double> run_delay_ms_per_s;  // schedstat per-CPU run_delay, summed
  std::optional<double> psi_some_pct;        // /proc/pressure/cpu some total delta / interval
  std::optional<double> numa_pages_migrated_per_s;  // /proc/vmstat numa_pages_migrated
  std::optional<double> numa_miss_per_s;            // /proc/vmstat numa_miss
  double load1 = 0;                                 // /proc/loadavg
  // What the disturbance check (disturbance.h) reads: CPU time of the
  // watched PUs, and the workload's own time. workload_* are empty when no
  // workload thread is registered.
  std::uint64_t watched_busy_ns = 0;              // all but idle and iowait, over the watched PUs
  std::uint64_t watched_total_ns = 0;             // all CPU time of the watched PUs
  std::optional<std::uint64_t> workload_run_ns;   // registered threads on a CPU
  std::optional<std::uint64_t> workload_wait_ns;  // registered threads waiting on a runqueue
  std::uint64_t workload_children_ns = 0;  // reaped children of registered processes, on a CPU
  // /proc/schedstat fields 7 and 8 summed over the watched PUs: time every
  // task ran there and waited there to run; empty without /proc/schedstat.
  std::optional<std::uint64_t> watched_run_ns;
  std::optional<std::uint64_t> watched_delay_ns;
  bool starved = false;        // the starvation signature completed in this interval
  std::string starved_reason;  // which rule, with the numbers, when starved
};

// Means and p95 of an iteration's samples (only samples that have the
// field count towards it); `samples` may be 0 (short iteration).
struct SampleSummary {
  std::uint32_t samples = 0;
  std::uint32_t starved_intervals = 0;
  struct Stat {
    std::string name;  // field name as in DerivedSample, e.g. "idle_pct"
    std::string unit;  // "%", "/s", "tasks", "ms/s"
    double mean = 0;
    double p95 = 0;
  };
  std::vector<Stat> stats;
};

}  // namespace schedrig::sampler
