#include "agent/workloads/workload_metrics.h"

#include <fmt/format.h>

namespace schedrig::workloads {

using D = Direction;

void add_percentiles(std::vector<Metric>& out, const std::string& name, const LatencyHistogram& h) {
  const std::pair<const char*, double> qs[] = {
      {"p50", 0.50}, {"p90", 0.90}, {"p99", 0.99}, {"p99_9", 0.999}, {"max", 1.0}};
  for (const auto& [label, q] : qs) {
    out.push_back(
        {fmt::format("{}_{}_us", name, label), h.quantile_ns(q) / 1000.0, "us", D::kLowerIsBetter});
  }
}

void add_sched_delay(std::vector<Metric>& out, const std::string& who,
                     const std::optional<SchedDelay>& d) {
  if (d) out.push_back({who + "_sched_delay_us", d->mean_delay_us, "us", D::kLowerIsBetter});
}

void add_wait_share(std::vector<Metric>& out, const std::optional<SchedDelay>& a,
                    const std::optional<SchedDelay>& b) {
  if (!a && !b) return;
  const double run = static_cast<double>((a ? a->run_ns : 0) + (b ? b->run_ns : 0));
  const double wait = static_cast<double>((a ? a->wait_ns : 0) + (b ? b->wait_ns : 0));
  out.push_back({"runqueue_wait_share", run + wait > 0 ? wait / (run + wait) : 0, "fraction",
                 D::kLowerIsBetter});
}

}  // namespace schedrig::workloads
