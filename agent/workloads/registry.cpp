#include "agent/workloads/registry.h"

#include <fmt/format.h>

#include "agent/workloads/fork_storm.h"
#include "agent/workloads/kv_store.h"
#include "agent/workloads/wakeup_storm.h"
#include "common/cpulist.h"

namespace schedrig::workloads {
namespace {

using D = Direction;

// Percentile metrics of `h` (ns) in us: NAME_p50_us ... NAME_max_us.
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

// Share of runnable time spent waiting for a CPU, over every thread.
void add_wait_share(std::vector<Metric>& out, const std::optional<SchedDelay>& a,
                    const std::optional<SchedDelay>& b) {
  if (!a && !b) return;
  const double run = (a ? a->run_ns : 0) + (b ? b->run_ns : 0);
  const double wait = (a ? a->wait_ns : 0) + (b ? b->wait_ns : 0);
  out.push_back({"runqueue_wait_share", run + wait > 0 ? wait / (run + wait) : 0, "fraction",
                 D::kLowerIsBetter});
}

// ---- fork ----

ForkStormParams fork_params(const Params& p, const std::vector<int>& cpus) {
  ForkStormParams f;
  f.workers = static_cast<unsigned>(param_int("fork", p, "workers", 1, 65536, cpus.size()));
  f.fork_max = static_cast<unsigned>(param_int("fork", p, "fork_max", 1, 16000));
  f.pin = param_choice("fork", p, "pin", {"set", "per-cpu"}) == "per-cpu" ? PinMode::kPerCpu
                                                                          : PinMode::kSet;
  f.record_placement = param_choice("fork", p, "placement_stats", {"on", "off"}) == "on";
  f.child_body = param_choice("fork", p, "child_body", {"exit", "stress-ng"}) == "stress-ng"
                     ? ChildBody::kStressNg
                     : ChildBody::kExit;
  f.cpus = cpus;
  return f;
}

void validate_fork(const Params& p, std::size_t n_cpus) {
  fork_params(p, std::vector<int>(n_cpus, 0));
}

WorkloadResult run_fork(const Params& p, const RunContext& ctx) {
  ForkStormParams f = fork_params(p, ctx.cpus);
  f.duration = ctx.duration;
  f.pu_to_llc = ctx.pu_to_llc;
  f.pu_to_node = ctx.pu_to_node;
  f.observer = ctx.observer;
  ForkStormResult r = run_fork_storm(f, ctx.stop);
  WorkloadResult out;
  out.metrics = {
      {"bogo_ops_per_s", r.bogo_ops_per_s, "ops/s", D::kHigherIsBetter},
      {"bogo_ops", static_cast<double>(r.bogo_ops), "ops", D::kHigherIsBetter},
      {"fork_failures", static_cast<double>(r.fork_failures), "count", D::kLowerIsBetter},
      {"duration_s", r.duration_s, "s", D::kLowerIsBetter}};
  if (r.recorded) {
    auto& m = out.metrics;
    // Informational: no better or worse, marked higher so it reads as locality.
    m.push_back({"same_pu_rate", r.same_pu_rate, "fraction", D::kHigherIsBetter});
    m.push_back({"placement_collision_rate", r.collision_rate, "fraction", D::kLowerIsBetter});
    if (!f.pu_to_llc.empty()) {
      m.push_back(
          {"placement_collision_rate_llc", r.collision_rate_llc, "fraction", D::kLowerIsBetter});
    }
    for (const auto& [node, n] : r.children_per_node) {
      m.push_back(
          {node < 0 ? std::string("children_node_unknown") : fmt::format("children_node{}", node),
           static_cast<double>(n), "count", D::kHigherIsBetter});
    }
    for (const auto& [llc, n] : r.children_per_llc) {
      m.push_back(
          {llc < 0 ? std::string("children_llc_unknown") : fmt::format("children_llc{}", llc),
           static_cast<double>(n), "count", D::kHigherIsBetter});
    }
  }
  out.effective_params = {
      {"workers", std::to_string(f.workers)},
      {"fork_max", std::to_string(f.fork_max)},
      {"pin", f.pin == PinMode::kPerCpu ? "per-cpu" : "set"},
      {"placement_stats", f.record_placement ? "on" : "off"},
      {"child_body", f.child_body == ChildBody::kStressNg ? "stress-ng" : "exit"}};
  return out;
}

// ---- wakeup ----

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
  add_percentiles(m, "wakeup_latency", r.wakeup_latency);
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

// ---- kv ----

KvParams kv_params(const Params& p, std::size_t n_cpus) {
  KvParams k;
  k.clients = static_cast<unsigned>(param_int("kv", p, "clients", 1, 16384));
  k.executors = static_cast<unsigned>(param_int(
      "kv", p, "executors", 1, 4096, static_cast<long long>(std::max<std::size_t>(1, n_cpus))));
  k.read_ratio = param_double("kv", p, "read_ratio", 0.0, 1.0);
  k.keys = static_cast<std::uint64_t>(param_int("kv", p, "keys", 1, 100000000));
  k.shards = static_cast<unsigned>(param_int("kv", p, "shards", 1, 65536));
  if (k.shards > k.keys) {
    throw ParamError(fmt::format("kv: parameter 'shards' = '{}': must be in [1, keys] = [1, {}]",
                                 k.shards, k.keys));
  }
  k.membind = param_membind("kv", p, "membind");
  return k;
}

void validate_kv(const Params& p, std::size_t n_cpus) { kv_params(p, n_cpus); }

WorkloadResult run_kv_case(const Params& p, const RunContext& ctx) {
  KvParams k = kv_params(p, ctx.cpus.size());
  k.cpus = ctx.cpus;
  k.duration = ctx.duration;
  k.observer = ctx.observer;
  KvResult r = run_kv(k, ctx.stop);
  WorkloadResult out;
  auto& m = out.metrics;
  m.push_back({"ops_per_s", r.ops_per_s, "ops/s", D::kHigherIsBetter});
  m.push_back({"ops", static_cast<double>(r.ops), "ops", D::kHigherIsBetter});
  m.push_back({"reads", static_cast<double>(r.reads), "ops", D::kHigherIsBetter});
  m.push_back({"writes", static_cast<double>(r.writes), "ops", D::kHigherIsBetter});
  m.push_back({"duration_s", r.duration_s, "s", D::kLowerIsBetter});
  add_percentiles(m, "op_latency", r.op_latency);
  add_sched_delay(m, "client", r.client_delay);
  add_sched_delay(m, "executor", r.executor_delay);
  add_wait_share(m, r.client_delay, r.executor_delay);
  out.histograms = {r.op_latency.to_histogram("op_latency", "us", 1000.0)};
  out.effective_params = {{"clients", std::to_string(k.clients)},
                          {"executors", std::to_string(k.executors)},
                          {"read_ratio", fmt::format("{}", k.read_ratio)},
                          {"keys", std::to_string(k.keys)},
                          {"shards", std::to_string(k.shards)},
                          {"membind", r.membind}};
  return out;
}

std::vector<WorkloadInfo> make_registry() {
  return {
      {"fork",
       "fork storm, stress-ng --fork semantics: creators fork up to fork_max children that exit "
       "at once, then reap them; bogo ops = children reaped; records where each child first ran",
       {{"workers", "auto", "creator processes; auto = one per PU of the placement"},
        {"fork_max", "1", "children forked per loop before reaping, 1..16000 (as stress-ng)"},
        {"pin", "set", "set: creators share the cpulist; per-cpu: creator i on PU i"},
        {"placement_stats", "on",
         "on: record each child's first PU (same-PU rate, collision rate); off: plain storm"},
        {"child_body", "exit",
         "exit: children exit at once; stress-ng: they first make stress-ng 0.15's calls "
         "(setsid, setpgid..., sched_yield)"}},
       "bogo_ops_per_s",
       "ops/s",
       D::kHigherIsBetter,
       validate_fork,
       run_fork},
      {"wakeup",
       "wakeup storm, the schbench model: message threads wake their workers through futexes; "
       "RPS, wakeup and request latency percentiles, scheduler delay",
       {{"message_threads", "1", "message threads (schbench -m), each on its own PU if enough"},
        {"workers_per_message", "auto",
         "workers per message thread (schbench -t); auto = ceil(PUs / message_threads)"},
        {"think_ops", "0", "think work per request in 16x16 matrix products; 0 = none"}},
       "requests_per_s",
       "requests/s",
       D::kHigherIsBetter,
       validate_wakeup,
       run_wakeup},
      {"kv",
       "CockroachDB-like kv contention: client threads submit reads and writes through futex "
       "queues to executor threads over a lock-striped in-memory table; ops/s and op latency",
       {{"clients", "128", "client threads (connections), each with one request in flight"},
        {"executors", "auto", "executor threads; auto = one per PU (like GOMAXPROCS)"},
        {"read_ratio", "0.60", "share of reads, 0..1 (0.60 = kv60, 0.95 = kv95)"},
        {"keys", "100000", "keys in the table (64 bytes each)"},
        {"shards", "64", "lock stripes; key k lives in shard k % shards"},
        {"membind", "local", "table memory: local, interleave or node:N"}},
       "ops_per_s",
       "ops/s",
       D::kHigherIsBetter,
       validate_kv,
       run_kv_case},
  };
}

}  // namespace

const std::vector<WorkloadInfo>& all_workloads() {
  static const std::vector<WorkloadInfo> registry = make_registry();
  return registry;
}

const WorkloadInfo& find_workload(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& w : all_workloads()) {
    if (name == w.name) return w;
    names.push_back(w.name);
  }
  throw ParamError(
      fmt::format("workload '{}' is not known (known: {})", name, fmt::join(names, ", ")));
}

Params with_defaults(const WorkloadInfo& w, const Params& p) {
  for (const auto& [name, value] : p) {
    bool known = false;
    for (const auto& spec : w.params) known = known || name == spec.name;
    if (!known) {
      std::vector<std::string> names;
      for (const auto& spec : w.params) names.push_back(spec.name);
      throw ParamError(fmt::format("{}: parameter '{}' is not known (known: {})", w.name, name,
                                   fmt::join(names, ", ")));
    }
  }
  Params out = p;
  for (const auto& spec : w.params) {
    if (out.count(spec.name)) continue;
    if (!spec.default_value) {
      throw ParamError(fmt::format("{}: parameter '{}' is required", w.name, spec.name));
    }
    out[spec.name] = spec.default_value;
  }
  return out;
}

}  // namespace schedrig::workloads
