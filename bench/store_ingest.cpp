// store_ingest: envelopes stored per second by Store::ingest (one
// transaction each) and Store::ingest_batch (one transaction per batch, a
// savepoint per item), for small Sample and IterationResult envelopes as
// the collector stores them. Target (issue 12): >= 50k envelopes/s in
// batches of ~256 on the 2-core dev box.
//
//   cmake --preset bench && cmake --build build-bench --target store_ingest
//   build-bench/bin/store_ingest [--benchmark_filter=...]   (store in $SCHEDRIG_BENCH_DIR or /tmp)
//
// items_per_second is envelopes/s. The store file is fresh per benchmark
// and grows during it, as a collector's does.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "common/envelope_codec.h"
#include "host/store/store.h"
#include "schedrig/v1/envelope.pb.h"

namespace {

using schedrig::store::IngestItem;
using schedrig::store::IngestPolicy;
using schedrig::store::Store;
namespace v1 = schedrig::v1;

constexpr const char* kAgent = "bench-01";
constexpr const char* kInstance = "0b5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5b";
constexpr const char* kRun = "3f2a9c1e-5b6d-4e7f-8a9b-1c2d3e4f5a6b";

v1::Envelope envelope(unsigned long long seq) {
  v1::Envelope env;
  env.set_protocol_version(schedrig::kProtocolVersion);
  env.set_agent_id(kAgent);
  env.set_boot_id("7d1c6a2e-0000-4000-8000-000000000001");
  env.set_instance_id(kInstance);
  env.set_seq(seq);
  env.set_sent_at_ns(1767225600LL * 1000000000LL + static_cast<long long>(seq));
  return env;
}

// Every fourth envelope an IterationResult with two metrics, the rest Samples.
v1::Envelope small_envelope(unsigned long long seq) {
  v1::Envelope env = envelope(seq);
  const unsigned n = static_cast<unsigned>(seq);
  if (seq % 4 == 0) {
    v1::IterationResult* it = env.mutable_iteration_result();
    it->set_run_id(kRun);
    it->set_case_name("fork-all");
    it->set_variant("baseline");
    it->set_iteration(n);
    it->set_position(n);
    it->set_status(v1::STATUS_OK);
    for (const char* name : {"bogo_ops_per_s", "stale_pick_rate"}) {
      v1::Metric* m = it->add_metrics();
      m->set_name(name);
      m->set_value(1000.0 + n);
      m->set_unit("ops/s");
      m->set_direction(v1::HIGHER_IS_BETTER);
    }
    it->mutable_knobs()->insert({"NI_RANDOM", "on"});
    it->set_cpus("0-1");
  } else {
    v1::Sample* s = env.mutable_sample();
    s->set_run_id(kRun);
    s->set_case_name("fork-all");
    s->set_variant("baseline");
    s->set_iteration(n / 4);
    s->set_position(n / 4);
    s->set_t_ns(env.sent_at_ns());
    s->set_interval_s(1.0);
    s->set_idle_pct(12.5);
    s->set_ctxt_per_s(123456.0);
    s->set_runnable(3);
    s->set_load1(1.5);
  }
  return env;
}

struct Encoded {
  std::vector<v1::Envelope> envs;
  std::vector<std::string> bytes;
};

// Envelopes seq first..first+count-1, encoded.
Encoded make_envelopes(unsigned long long first, std::size_t count) {
  Encoded out;
  for (std::size_t i = 0; i < count; ++i) {
    out.envs.push_back(small_envelope(first + i));
    out.bytes.push_back(schedrig::encode_envelope(out.envs.back()));
  }
  return out;
}

// A fresh store file with the agent's Hello and the run's RunStarted (the
// run queued for the agent first when `queued`, as `serve` does); removed
// with its -wal and -shm on destruction.
class BenchStore {
 public:
  explicit BenchStore(bool queued = false) {
    const char* dir = std::getenv("SCHEDRIG_BENCH_DIR");
    path_ = (std::filesystem::path(dir && *dir ? dir : "/tmp") /
             ("schedrig-store-ingest-" + std::to_string(::getpid()) + ".db"))
                .string();
    remove();
    store_ = std::make_unique<Store>(path_);
    if (queued) {
      schedrig::store::QueuedRun q;
      q.run_id = kRun;
      q.agent_id = kAgent;
      q.plan_name = "p.yaml";
      q.submitted_by = "bench";
      store_->enqueue_run(q);
    }
    v1::Envelope hello = envelope(1);
    hello.mutable_hello()->set_hostname("bench.lab");
    v1::Envelope started = envelope(2);
    started.mutable_run_started()->set_run_id(kRun);
    store_->ingest(hello, schedrig::encode_envelope(hello));
    store_->ingest(started, schedrig::encode_envelope(started));
  }
  ~BenchStore() {
    store_.reset();
    remove();
  }
  Store& store() { return *store_; }

 private:
  void remove() {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_ + suffix);
  }
  std::string path_;
  std::unique_ptr<Store> store_;
};

void BM_IngestSingle(benchmark::State& state) {
  BenchStore db;
  constexpr std::size_t kChunk = 4096;
  unsigned long long next = 3;
  Encoded chunk;
  std::size_t i = kChunk;
  for (auto _ : state) {
    if (i == kChunk) {
      state.PauseTiming();
      chunk = make_envelopes(next, kChunk);
      next += kChunk;
      i = 0;
      state.ResumeTiming();
    }
    db.store().ingest(chunk.envs[i], chunk.bytes[i]);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_IngestBatch(benchmark::State& state) {
  // range(0): envelopes per batch; range(1): 1 = IngestPolicy{require_assigned_run}.
  const IngestPolicy policy{state.range(1) != 0};
  BenchStore db(policy.require_assigned_run);
  const auto size = static_cast<std::size_t>(state.range(0));
  unsigned long long next = 3;
  for (auto _ : state) {
    state.PauseTiming();
    Encoded batch = make_envelopes(next, size);
    next += size;
    std::vector<IngestItem> items;
    for (std::size_t i = 0; i < size; ++i) items.push_back({&batch.envs[i], batch.bytes[i]});
    state.ResumeTiming();
    benchmark::DoNotOptimize(db.store().ingest_batch(items, policy));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

}  // namespace

BENCHMARK(BM_IngestSingle)->MinTime(2.0)->UseRealTime();
BENCHMARK(BM_IngestBatch)
    ->Args({1, 0})
    ->Args({16, 0})
    ->Args({256, 0})
    ->Args({256, 1})
    ->Args({1024, 0})
    ->MinTime(2.0)
    ->UseRealTime();

BENCHMARK_MAIN();
