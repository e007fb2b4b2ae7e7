// /proc/schedstat, versions 14 to 17 (Documentation/scheduler/sched-stats.rst).
//
//   version 14: cpuN + 12 numbers (yld_both_empty, yld_act_empty,
//               yld_exp_empty, then the 9 below); domainN <mask> + 36
//   version 15: cpuN + 9 numbers; domainN <mask> + 36, idle types in the
//               order of enum cpu_idle_type: CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE
//   version 16: as 15, but the enum became __CPU_NOT_IDLE (busy) = 0,
//               CPU_IDLE, CPU_NEWLY_IDLE, so the busy block comes first
//               (the 6.12 doc's field list still says "idle" for 1-8: stale)
//   version 17: domainN <name> <mask> + 45: busy, idle, newly idle blocks of
//               11, lb_imbalance replaced by imbalance load/util/task/misfit
// Any other version, or a line whose field count does not match its
// version's layout (Mel Gorman's out-of-tree SIS patches also print
// "version 17"), is a SchedstatError: reported, never guessed.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "agent/sampler/sampler_error.h"

namespace schedrig::sampler {

// Unparsable or unsupported /proc/schedstat text (ErrorKind::kFailed).
struct SchedstatError : SamplerError {
  explicit SchedstatError(const std::string& message) : SamplerError(ErrorKind::kFailed, message) {}
};

// Index into DomainStats::lb; the same meaning for every version.
enum IdleType : int { kBusy = 0, kIdle = 1, kNewlyIdle = 2 };
inline constexpr int kIdleTypes = 3;

// sched_balance_rq() (load_balance()) counters for one idle type.
struct LbStats {
  std::uint64_t lb_count = 0;      // balance attempts
  std::uint64_t lb_balanced = 0;   // found nothing to do
  std::uint64_t lb_failed = 0;     // tried to move tasks and failed
  std::uint64_t lb_imbalance = 0;  // v14-16: sum of imbalances
  std::uint64_t imbalance_load = 0, imbalance_util = 0, imbalance_task = 0,
                imbalance_misfit = 0;  // v17 only
  std::uint64_t lb_gained = 0;         // tasks pulled
  std::uint64_t lb_hot_gained = 0;     // ... although cache-hot
  std::uint64_t lb_nobusyq = 0;        // no busier queue found
  std::uint64_t lb_nobusyg = 0;        // no busier group found
};

struct DomainStats {
  int level = 0;        // N of "domainN"
  std::string name;     // v17 ("SMT", "MC", "PKG", "NUMA"...), else empty
  std::string cpumask;  // as printed, e.g. "00000000,00000003"
  std::array<LbStats, kIdleTypes> lb;
  std::uint64_t alb_count = 0, alb_failed = 0, alb_pushed = 0;  // active balance
  std::uint64_t ttwu_wake_remote = 0, ttwu_move_affine = 0, ttwu_move_balance = 0;
};

struct CpuSchedstat {
  std::uint64_t yld_count = 0;
  std::uint64_t sched_count = 0;   // schedule() calls
  std::uint64_t sched_goidle = 0;  // ... that left the CPU idle
  std::uint64_t ttwu_count = 0;
  std::uint64_t ttwu_local = 0;
  std::uint64_t run_time_ns = 0;   // field 7: time tasks ran on this CPU
  std::uint64_t run_delay_ns = 0;  // field 8: time tasks waited to run here
  std::uint64_t timeslices = 0;    // field 9
  std::vector<DomainStats> domains;
};

struct Schedstat {
  unsigned version = 0;
  std::uint64_t timestamp = 0;       // jiffies
  std::map<int, CpuSchedstat> cpus;  // keyed by CPU number (online CPUs only)
};

// The versions parse_schedstat understands.
bool schedstat_version_supported(unsigned version);

// The "version N" of the first line; throws SchedstatError when absent.
unsigned schedstat_version(std::string_view text);

// Parses the whole file; throws SchedstatError ("unknown schedstat version
// 18", "schedstat version 17: cpu0 has 15 fields, expected 9") .
Schedstat parse_schedstat(std::string_view text);

}  // namespace schedrig::sampler
