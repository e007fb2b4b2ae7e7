#include "agent/knobs/allowlist.h"

#include <algorithm>
#include <climits>

#include <fmt/format.h>

#include "agent/knobs/knob.h"
#include "common/parse_whole.h"

namespace schedrig::knobs {

const std::vector<TunableSpec>& sysctl_allowlist() {
  static const std::vector<TunableSpec> list = {
      {"kernel.sched_autogroup_enabled", 0, 1, "group tasks by session (autogroup)"},
      {"kernel.numa_balancing", 0, 3,
       "automatic NUMA balancing: 0 off, 1 normal, 2 tiering, 3 both"},
      {"kernel.sched_schedstats", 0, 1, "collect schedstat counters"},
      {"kernel.sched_child_runs_first", 0, 1, "run the child first after fork (older kernels)"},
      {"kernel.sched_energy_aware", 0, 1, "energy-aware scheduling"},
      {"kernel.sched_rt_runtime_us", -1, INT_MAX, "RT throttling budget per period, us (-1 off)"},
      {"kernel.sched_rt_period_us", 1, INT_MAX, "RT throttling period, us"},
      {"kernel.sched_rr_timeslice_ms", -1, INT_MAX, "SCHED_RR timeslice, ms"},
      {"kernel.sched_cfs_bandwidth_slice_us", 1, INT_MAX, "CFS bandwidth slice, us"},
      {"kernel.sched_util_clamp_min", 0, 1024, "uclamp min"},
      {"kernel.sched_util_clamp_max", 0, 1024, "uclamp max"},
      {"kernel.sched_util_clamp_min_rt_default", 0, 1024, "uclamp min default for RT"},
      {"kernel.timer_migration", 0, 1, "migrate timers to busy CPUs"},
      {"kernel.numa_balancing_promote_rate_limit_MBps", 0, INT_MAX, "tiering promote rate, MB/s"},
  };
  return list;
}

const std::vector<TunableSpec>& debugfs_allowlist() {
  static const std::vector<TunableSpec> list = {
      {"sched/base_slice_ns", 0, LLONG_MAX, "EEVDF base slice, ns (6.6+)"},
      {"sched/migration_cost_ns", 0, LLONG_MAX, "task considered cache-hot for this long, ns"},
      {"sched/nr_migrate", 0, INT_MAX, "tasks moved per load-balance pass"},
      {"sched/tunable_scaling", 0, 2, "slice scaling with CPUs: 0 none, 1 log, 2 linear"},
      {"sched/latency_warn_ms", 0, INT_MAX, "warn when a task waits this long, ms"},
      {"sched/latency_warn_once", 0, 1, "warn only once"},
      {"sched/verbose", 0, 1, "verbose sched-domain output"},
      {"sched/latency_ns", 0, LLONG_MAX, "CFS target latency, ns (before 6.6)"},
      {"sched/min_granularity_ns", 0, LLONG_MAX, "CFS minimum slice, ns (before 6.6)"},
      {"sched/idle_min_granularity_ns", 0, LLONG_MAX, "CFS idle minimum slice, ns (before 6.6)"},
      {"sched/wakeup_granularity_ns", 0, LLONG_MAX,
       "CFS wakeup preemption granularity, ns (before 6.6)"},
      {"sched/numa_balancing/scan_delay_ms", 0, INT_MAX, "NUMA scan delay after start, ms"},
      {"sched/numa_balancing/scan_period_min_ms", 0, INT_MAX, "NUMA minimum scan period, ms"},
      {"sched/numa_balancing/scan_period_max_ms", 0, INT_MAX, "NUMA maximum scan period, ms"},
      {"sched/numa_balancing/scan_size_mb", 0, INT_MAX, "NUMA scan size, MB"},
      {"sched/numa_balancing/hot_threshold_ms", 0, INT_MAX, "NUMA hot page threshold, ms"},
  };
  return list;
}

const TunableSpec* find_spec(const std::vector<TunableSpec>& list, const std::string& name) {
  for (const auto& s : list) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

void check_value(const TunableSpec& spec, const std::string& value) {
  const auto v = try_parse_whole<long long>(value);
  if (!v || *v < spec.min || *v > spec.max) {
    throw KnobError(fmt::format("{}: value '{}' is not an integer in [{}, {}]", spec.name, value,
                                spec.min, spec.max));
  }
}

static std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> close_matches(const std::string& name,
                                       const std::vector<std::string>& candidates) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(name, c);
    bool prefix = name.size() >= 3 && (c.rfind(name.substr(0, 3), 0) == 0);
    if (d <= 3 || prefix) scored.emplace_back(d, c);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < 3; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace schedrig::knobs
