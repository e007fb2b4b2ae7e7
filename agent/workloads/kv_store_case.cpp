// The kv workload in the registry: plan parameters -> KvParams, its result
// -> metrics and histograms (kv_store.h).
#include "agent/workloads/workload_cases.h"

#include <fmt/format.h>

#include "agent/workloads/kv_store.h"
#include "agent/workloads/workload_metrics.h"

namespace schedrig::workloads {
namespace {

using D = Direction;

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
                                 k.shards, k.keys),
                     "shards");
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

}  // namespace

WorkloadInfo kv_workload() {
  return {"kv",
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
          run_kv_case};
}

}  // namespace schedrig::workloads
