// The wakeup storm in the registry: plan parameters -> WakeupParams, its
// result -> metrics and histograms (wakeup_storm.h).
#include "agent/workloads/workload_cases.h"

#include <fmt/format.h>

#include "agent/workloads/wakeup_storm.h"
#include "agent/workloads/workload_metrics.h"
#include "common/cpulist.h"

namespace schedrig::workloads {
namespace {

using D = Direction;

WakeupParams wakeup_params(const Params& p, std::size_t n_cpus) {
  WakeupParams w;
  w.message_threads = static_cast<unsigned>(param_int("wakeup", p, "message_threads", 1, 1024));
  const long long auto_t = static_cast<long long>((n_cpus + w.message_threads - 1) /
                                                  w.message_threads);  // schbench -t default
  w.workers_per_message = static_cast<unsigned>(
      param_int("wakeup", p, "workers_per_message", 1, 16384, std::max(1LL, auto_t)));
  w.think_ops = static_cast<unsigned>(param_int("wakeup", p, "think_ops", 0, 1000000));
  const unsigned long long threads =
      static_cast<unsigned long long>(w.message_threads) * (w.workers_per_message + 1ULL);
  if (threads > 32768) {
    throw ParamError(fmt::format(
        "wakeup: parameters 'message_threads' = '{}' and 'workers_per_message' = '{}' make {} "
        "threads: must be at most 32768",
        w.message_threads, w.workers_per_message, threads));
  }
  return w;
}

void validate_wakeup(const Params& p, std::size_t n_cpus) { wakeup_params(p, n_cpus); }

WorkloadResult run_wakeup(const Params& p, const RunContext& ctx) {
  WakeupParams w = wakeup_params(p, ctx.cpus.size());
  w.cpus = ctx.cpus;
  w.message_cpus = ctx.message_cpus;
  w.worker_cpus = ctx.worker_cpus;
  w.duration = ctx.duration;
  w.observer = ctx.observer;
  WakeupResult r = run_wakeup_storm(w, ctx.stop);
  WorkloadResult out;
  auto& m = out.metrics;
  m.push_back({"requests_per_s", r.requests_per_s, "requests/s", D::kHigherIsBetter});
  m.push_back({"requests", static_cast<double>(r.requests), "requests", D::kHigherIsBetter});
  m.push_back({"duration_s", r.duration_s, "s", D::kLowerIsBetter});
  m.push_back({"early_reply_pct",
               r.requests
                   ? 100.0 * static_cast<double>(r.early_replies) / static_cast<double>(r.requests)
                   : 0.0,
               "%", D::kHigherIsBetter});
  add_percentiles(m, "wakeup_latency", r.wakeup_latency);
  for (const auto& [label, q] : {std::pair{"p50", 0.50}, std::pair{"p99", 0.99}}) {
    m.push_back({fmt::format("schbench_wakeup_latency_{}_us", label),
                 r.schbench_wakeup_latency.quantile_ns(q) / 1000.0, "us", D::kLowerIsBetter});
  }
  add_percentiles(m, "request_latency", r.request_latency);
  add_sched_delay(m, "message", r.message_delay);
  add_sched_delay(m, "worker", r.worker_delay);
  add_wait_share(m, r.message_delay, r.worker_delay);
  out.histograms = {r.wakeup_latency.to_histogram("wakeup_latency", "us", 1000.0),
                    r.request_latency.to_histogram("request_latency", "us", 1000.0)};
  out.effective_params = {{"message_threads", std::to_string(w.message_threads)},
                          {"workers_per_message", std::to_string(w.workers_per_message)},
                          {"think_ops", std::to_string(w.think_ops)},
                          {"message_cpus", format_cpulist(r.message_cpus)},
                          {"worker_cpus", format_cpulist(r.worker_cpus)}};
  return out;
}

}  // namespace

WorkloadInfo wakeup_workload() {
  return {"wakeup",
          "wakeup storm, the schbench model: message threads wake their workers through futexes; "
          "RPS, wakeup and request latency percentiles, scheduler delay",
          {{"message_threads", "1",
            "message threads (schbench -m), thread i pinned to PU i of the placement"},
           {"workers_per_message", "auto",
            "workers per message thread (schbench -t); auto = ceil(PUs / message_threads)"},
           {"think_ops", "0", "think work per request in 16x16 matrix products; 0 = none"}},
          "requests_per_s",
          "requests/s",
          D::kHigherIsBetter,
          validate_wakeup,
          run_wakeup};
}

}  // namespace schedrig::workloads
