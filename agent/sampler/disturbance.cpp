#include "agent/sampler/disturbance.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace schedrig::sampler {
namespace {

double as_double(std::uint64_t v) { return static_cast<double>(v); }

// Tasks of ours runnable on average in `s`: (run + wait of the threads +
// children's run) / interval.
double own_runnable(const DerivedSample& s) {
  const double interval_ns = std::max(s.interval_s, 1e-9) * 1e9;
  return as_double(*s.workload_run_ns + *s.workload_wait_ns + s.workload_children_ns) / interval_ns;
}

}  // namespace

WindowLoad window_load(const std::vector<DerivedSample>& samples) {
  WindowLoad load;
  double busy = 0, own = 0, total = 0, other_runnable = 0;
  bool children = false;
  for (const DerivedSample& s : samples) {
    if (!s.workload_run_ns || !s.workload_wait_ns) continue;
    ++load.intervals;
    busy += as_double(s.watched_busy_ns);
    own += as_double(*s.workload_run_ns + s.workload_children_ns);
    total += as_double(s.watched_total_ns);
    children = children || s.workload_children_ns > 0;
    // procs_running counts the sampler reading /proc/stat.
    const double running = s.runnable > 0 ? static_cast<double>(s.runnable) - 1 : 0;
    other_runnable += running - own_runnable(s);
  }
  if (load.intervals == 0) return load;
  load.other_cpu_pct = total > 0 ? std::max(0.0, 100 * (busy - own) / total) : 0;
  if (!children) {
    load.other_runnable = std::max(0.0, other_runnable / static_cast<double>(load.intervals));
  }
  return load;
}

std::string disturbance_reason(const WindowLoad& load, const DisturbanceLimits& limits) {
  if (load.intervals == 0) return "";
  std::vector<std::string> why;
  if (load.other_cpu_pct > limits.max_other_cpu_pct) {
    why.push_back(fmt::format("{:.1f}% CPU of other processes (> {:g}%)", load.other_cpu_pct,
                              limits.max_other_cpu_pct));
  }
  if (load.other_runnable && *load.other_runnable > limits.max_other_runnable) {
    why.push_back(fmt::format("{:.1f} runnable tasks not the workload's on average (> {:g})",
                              *load.other_runnable, limits.max_other_runnable));
  }
  if (why.empty()) return "";
  return fmt::format("other work: {}", fmt::join(why, "; "));
}

}  // namespace schedrig::sampler
