#include "agent/sampler/derive.h"

#include <algorithm>
#include <map>

#include "agent/sampler/counter_delta.h"

namespace schedrig::sampler {
namespace {

// Idle and total ns of one CPU over the interval.
struct CpuDelta {
  std::uint64_t idle = 0;
  std::uint64_t total = 0;
};

CpuDelta cpu_delta(const CpuTimes& a, const CpuTimes& b) {
  CpuDelta d;
  d.idle = counter_delta(b.idle, a.idle) + counter_delta(b.iowait, a.iowait);
  d.total = d.idle + counter_delta(b.user, a.user) + counter_delta(b.nice, a.nice) +
            counter_delta(b.system, a.system) + counter_delta(b.irq, a.irq) +
            counter_delta(b.softirq, a.softirq) + counter_delta(b.steal, a.steal);
  return d;
}

bool watched(const DeriveContext& ctx, int cpu) {
  return ctx.cpus.empty() || std::find(ctx.cpus.begin(), ctx.cpus.end(), cpu) != ctx.cpus.end();
}

// Per CPU present in both snapshots.
std::map<int, CpuDelta> cpu_deltas(const ProcStat& a, const ProcStat& b) {
  std::map<int, CpuDelta> out;
  for (const auto& [cpu, times] : b.cpus) {
    auto it = a.cpus.find(cpu);
    if (it != a.cpus.end()) out[cpu] = cpu_delta(it->second, times);
  }
  return out;
}

// Idle and total ns summed over the watched PUs.
CpuDelta watched_delta(const std::map<int, CpuDelta>& deltas, const DeriveContext& ctx) {
  CpuDelta sum;
  for (const auto& [cpu, d] : deltas) {
    if (!watched(ctx, cpu)) continue;
    sum.idle += d.idle;
    sum.total += d.total;
  }
  return sum;
}

double idle_pct(const CpuDelta& d) {
  return d.total ? 100.0 * static_cast<double>(d.idle) / static_cast<double>(d.total) : 0;
}

std::vector<NodeBusy> busy_per_node(const std::map<int, CpuDelta>& deltas,
                                    const DeriveContext& ctx) {
  std::map<int, CpuDelta> nodes;
  for (const auto& [cpu, d] : deltas) {
    if (cpu < 0 || static_cast<std::size_t>(cpu) >= ctx.pu_to_node.size()) continue;
    auto& n = nodes[ctx.pu_to_node[static_cast<std::size_t>(cpu)]];
    n.idle += d.idle;
    n.total += d.total;
  }
  std::vector<NodeBusy> out;
  for (const auto& [node, d] : nodes) {
    const double idle =
        d.total ? 100.0 * static_cast<double>(d.idle) / static_cast<double>(d.total) : 100;
    out.push_back({node, 100 - idle});
  }
  return out;
}

double rate(std::uint64_t now, std::uint64_t before, double seconds) {
  return static_cast<double>(counter_delta(now, before)) / seconds;
}

void derive_schedstat(const Schedstat& a, const Schedstat& b, const DeriveContext& ctx,
                      double seconds, DerivedSample& out) {
  if (a.version != b.version) return;
  std::uint64_t lb = 0, failed = 0, delay = 0, run = 0;
  for (const auto& [cpu, now] : b.cpus) {
    auto it = a.cpus.find(cpu);
    if (it == a.cpus.end() || !watched(ctx, cpu)) continue;
    delay += counter_delta(now.run_delay_ns, it->second.run_delay_ns);
    run += counter_delta(now.run_time_ns, it->second.run_time_ns);
    const std::size_t n = std::min(now.domains.size(), it->second.domains.size());
    for (std::size_t i = 0; i < n; ++i) {
      const auto& x = it->second.domains[i].lb[kNewlyIdle];
      const auto& y = now.domains[i].lb[kNewlyIdle];
      lb += counter_delta(y.lb_count, x.lb_count);
      failed += counter_delta(y.lb_failed, x.lb_failed);
    }
  }
  out.newidle_lb_per_s = static_cast<double>(lb) / seconds;
  if (lb)
    out.newidle_failed_pct =
        std::min(100.0, 100.0 * static_cast<double>(failed) / static_cast<double>(lb));
  out.run_delay_ms_per_s = static_cast<double>(delay) / 1e6 / seconds;
  out.watched_run_ns = run;
  out.watched_delay_ns = delay;
}

void derive_tasks(const std::map<pid_t, procfs::TaskSchedstat>& a,
                  const std::map<pid_t, procfs::TaskSchedstat>& b, DerivedSample& out) {
  // A thread with no earlier reading counts from 0: the runner starts the
  // sampler before the workload, so such a thread was born in this interval
  // and its counters are all this interval's.
  if (b.empty()) return;
  std::uint64_t run = 0, wait = 0;
  const procfs::TaskSchedstat born{};
  for (const auto& [tid, now] : b) {
    auto it = a.find(tid);
    const procfs::TaskSchedstat& before = it == a.end() ? born : it->second;
    run += counter_delta(now.run_ns, before.run_ns);
    wait += counter_delta(now.wait_ns, before.wait_ns);
  }
  out.workload_run_ns = run;
  out.workload_wait_ns = wait;
  if (run + wait)
    out.wait_share_pct = 100.0 * static_cast<double>(wait) / static_cast<double>(run + wait);
}

// A process with no earlier reading adds nothing: its children's time
// before the window is not the window's.
std::uint64_t children_delta(const std::map<pid_t, std::uint64_t>& a,
                             const std::map<pid_t, std::uint64_t>& b) {
  std::uint64_t sum = 0;
  for (const auto& [pid, now] : b) {
    auto it = a.find(pid);
    if (it != a.end()) sum += counter_delta(now, it->second);
  }
  return sum;
}

void derive_vmstat(const Vmstat& a, const Vmstat& b, double seconds, DerivedSample& out) {
  if (a.numa_pages_migrated && b.numa_pages_migrated) {
    out.numa_pages_migrated_per_s = rate(*b.numa_pages_migrated, *a.numa_pages_migrated, seconds);
  }
  if (a.numa_miss && b.numa_miss) out.numa_miss_per_s = rate(*b.numa_miss, *a.numa_miss, seconds);
}

void derive_pressure(const Pressure& a, const Pressure& b, double seconds, DerivedSample& out) {
  if (!a.some || !b.some) return;
  const double us = static_cast<double>(counter_delta(b.some->total_us, a.some->total_us));
  out.psi_some_pct = std::min(100.0, 100.0 * us / (seconds * 1e6));
}

}  // namespace

DerivedSample derive(const Snapshot& prev, const Snapshot& cur, const DeriveContext& ctx) {
  DerivedSample s;
  s.t_ns = cur.real_ns;
  s.interval_s = static_cast<double>(cur.mono_ns - prev.mono_ns) / 1e9;
  const double seconds = s.interval_s > 0 ? s.interval_s : 1e-9;
  const auto deltas = cpu_deltas(prev.stat, cur.stat);
  const CpuDelta watched_cpu = watched_delta(deltas, ctx);
  s.idle_pct = idle_pct(watched_cpu);
  s.watched_busy_ns = watched_cpu.total - watched_cpu.idle;
  s.watched_total_ns = watched_cpu.total;
  s.workload_children_ns = children_delta(prev.children_ns, cur.children_ns);
  s.busy_per_node = busy_per_node(deltas, ctx);
  s.ctxt_per_s = rate(cur.stat.ctxt, prev.stat.ctxt, seconds);
  s.intr_per_s = rate(cur.stat.intr, prev.stat.intr, seconds);
  s.forks_per_s = rate(cur.stat.processes, prev.stat.processes, seconds);
  s.runnable = cur.stat.procs_running;
  s.blocked = cur.stat.procs_blocked;
  derive_tasks(prev.tasks, cur.tasks, s);
  if (prev.schedstat && cur.schedstat)
    derive_schedstat(*prev.schedstat, *cur.schedstat, ctx, seconds, s);
  if (prev.pressure && cur.pressure) derive_pressure(*prev.pressure, *cur.pressure, seconds, s);
  if (prev.vmstat && cur.vmstat) derive_vmstat(*prev.vmstat, *cur.vmstat, seconds, s);
  if (cur.loadavg) s.load1 = cur.loadavg->load1;
  return s;
}

}  // namespace schedrig::sampler
