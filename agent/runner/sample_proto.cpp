#include "agent/runner/sample_proto.h"

namespace schedrig::runner {
namespace {

// Sets an optional field through its setter when the value is present.
template <class Setter>
void set_if(const std::optional<double>& value, Setter set) {
  if (value) set(*value);
}

}  // namespace

v1::Sample to_proto(const sampler::DerivedSample& s) {
  v1::Sample out;
  out.set_t_ns(s.t_ns);
  out.set_interval_s(s.interval_s);
  out.set_idle_pct(s.idle_pct);
  for (const auto& n : s.busy_per_node) {
    auto* node = out.add_busy_per_node();
    node->set_node(static_cast<std::uint32_t>(n.node));
    node->set_busy_pct(n.busy_pct);
  }
  out.set_ctxt_per_s(s.ctxt_per_s);
  out.set_intr_per_s(s.intr_per_s);
  out.set_forks_per_s(s.forks_per_s);
  out.set_runnable(s.runnable);
  out.set_blocked(s.blocked);
  set_if(s.wait_share_pct, [&](double v) { out.set_wait_share_pct(v); });
  set_if(s.newidle_lb_per_s, [&](double v) { out.set_newidle_lb_per_s(v); });
  set_if(s.newidle_failed_pct, [&](double v) { out.set_newidle_failed_pct(v); });
  set_if(s.run_delay_ms_per_s, [&](double v) { out.set_run_delay_ms_per_s(v); });
  set_if(s.psi_some_pct, [&](double v) { out.set_psi_some_pct(v); });
  set_if(s.numa_pages_migrated_per_s, [&](double v) { out.set_numa_pages_migrated_per_s(v); });
  set_if(s.numa_miss_per_s, [&](double v) { out.set_numa_miss_per_s(v); });
  out.set_load1(s.load1);
  out.set_starved(s.starved);
  out.set_starved_reason(s.starved_reason);
  return out;
}

v1::SampleSummary to_proto(const sampler::SampleSummary& s) {
  v1::SampleSummary out;
  out.set_samples(s.samples);
  out.set_starved_intervals(s.starved_intervals);
  for (const auto& stat : s.stats) {
    auto* p = out.add_stats();
    p->set_name(stat.name);
    p->set_unit(stat.unit);
    p->set_mean(stat.mean);
    p->set_p95(stat.p95);
  }
  return out;
}

}  // namespace schedrig::runner
