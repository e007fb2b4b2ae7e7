#include "agent/sampler/disturbance.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace schedrig::sampler {
namespace {

double as_double(std::uint64_t v) { return static_cast<double>(v); }

// Time other tasks spent running or waiting on the watched PUs in `s`, ns
// (may be negative by accounting skew; summed over the window first).
double other_active_ns(const DerivedSample& s) {
  return as_double(*s.watched_run_ns + *s.watched_delay_ns) -
         as_double(*s.workload_run_ns + *s.workload_wait_ns);
}

}  // namespace

WindowLoad window_load(const std::vector<DerivedSample>& samples) {
  WindowLoad load;
  double busy = 0, own = 0, total = 0, other_active = 0, seconds = 0;
  bool children = false, schedstat = true;
  for (const DerivedSample& s : samples) {
    if (!s.workload_run_ns || !s.workload_wait_ns) continue;
    ++load.intervals;
    busy += as_double(s.watched_busy_ns);
    own += as_double(*s.workload_run_ns + s.workload_children_ns);
    total += as_double(s.watched_total_ns);
    children = children || s.workload_children_ns > 0;
    schedstat = schedstat && s.watched_run_ns && s.watched_delay_ns;
    if (schedstat) other_active += other_active_ns(s);
    seconds += s.interval_s;
  }
  if (load.intervals == 0) return load;
  load.other_cpu_pct = total > 0 ? std::max(0.0, 100 * (busy - own) / total) : 0;
  if (!children && schedstat && seconds > 0) {
    load.other_runnable = std::max(0.0, other_active / (seconds * 1e9));
  }
  return load;
}

void apply_process_scan(WindowLoad& load, std::uint64_t other_ns, double window_s,
                        std::size_t pus) {
  if (window_s <= 0 || pus == 0) return;
  const double pct = 100 * as_double(other_ns) / (window_s * 1e9 * static_cast<double>(pus));
  load.other_processes_cpu_pct = std::min(100.0, pct);
  load.other_cpu_pct = std::min(load.other_cpu_pct, *load.other_processes_cpu_pct);
}

std::string disturbance_reason(const WindowLoad& load, const DisturbanceLimits& limits) {
  if (load.intervals == 0) return "";
  std::vector<std::string> why;
  if (load.other_cpu_pct > limits.max_other_cpu_pct) {
    why.push_back(fmt::format("{:.1f}% CPU of other processes (> {:g}%)", load.other_cpu_pct,
                              limits.max_other_cpu_pct));
  }
  if (load.other_runnable && *load.other_runnable > limits.max_other_runnable) {
    why.push_back(
        fmt::format("{:.1f} tasks not the workload's running or waiting on its PUs on "
                    "average (> {:g})",
                    *load.other_runnable, limits.max_other_runnable));
  }
  if (why.empty()) return "";
  return fmt::format("other work: {}", fmt::join(why, "; "));
}

}  // namespace schedrig::sampler
