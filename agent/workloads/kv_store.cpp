#include "agent/workloads/kv_store.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "agent/workloads/clock.h"
#include "agent/workloads/futex.h"
#include "agent/workloads/thread_group.h"
#include "agent/workloads/timed_window.h"

namespace schedrig::workloads {
namespace {

struct alignas(64) Value {
  std::uint64_t w[8];
};

struct alignas(64) Shard {
  std::mutex mu;
  Value* values = nullptr;  // this shard's keys: key k at values[k / S]
};

struct alignas(64) Client {
  // Request line: written by the client before the push, read and answered
  // by the executor.
  std::atomic<std::uint32_t> futex{kBlocked};
  Client* next = nullptr;  // queue link, published by the CAS that pushes us
  std::uint64_t key = 0;
  bool write = false;
  std::uint64_t result = 0;
  // Client-private.
  alignas(64) std::atomic<std::uint64_t> ops{0};
  std::atomic<std::uint64_t> writes{0};
  std::uint64_t rng = 0;
  pid_t tid = 0;
  LatencyHistogram latency;
};

struct alignas(64) Executor {
  std::atomic<std::uint32_t> futex{kBlocked};
  std::atomic<Client*> head{nullptr};  // pending requests (LIFO; reversed on take)
  pid_t tid = 0;
  bool bound = false;      // apply_membind took (false: no NUMA support)
  std::string bind_error;  // why apply_membind threw; the executor then did not run
};

// An anonymous private mapping, unmapped on every path.
class Mapping {
 public:
  explicit Mapping(std::size_t bytes) : size_(bytes) {
    data_ = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data_ == MAP_FAILED) {
      data_ = nullptr;
      throw WorkloadError(
          fmt::format("kv: cannot map a {} byte table: {}", bytes, std::strerror(errno)));
    }
  }
  ~Mapping() {
    if (data_) ::munmap(data_, size_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  void* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

std::uint64_t next_random(std::uint64_t& s) {  // xorshift64*
  s ^= s >> 12;
  s ^= s << 25;
  s ^= s >> 27;
  return s * 0x2545F4914F6CDD1DULL;
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The work under the shard lock.
void serve(Shard* shards, unsigned n_shards, Client& c) {
  Shard& s = shards[c.key % n_shards];
  std::lock_guard<std::mutex> lock(s.mu);
  Value& v = s.values[c.key / n_shards];
  if (c.write) {
    for (unsigned i = 0; i < 8; ++i) v.w[i] = mix(v.w[i] + c.key + i);
    c.result = v.w[0];
  } else {
    std::uint64_t sum = 0;
    for (unsigned i = 0; i < 8; ++i) sum = mix(sum ^ v.w[i]);
    c.result = sum;
  }
}

void push(Executor& e, Client* c) {
  Client* old = e.head.load(std::memory_order_relaxed);
  do {
    c->next = old;
  } while (
      !e.head.compare_exchange_weak(old, c, std::memory_order_release, std::memory_order_relaxed));
}

void executor_main(StartGate& s, Executor& e, const placement::MemBind& bind, Shard* shards,
                   unsigned n_shards, unsigned first_shard, unsigned shard_step,
                   std::uint64_t per_shard) {
  e.tid = current_tid();
  try {
    e.bound = placement::apply_membind(bind);  // before this thread touches the table
  } catch (const std::exception& ex) {
    e.bind_error = ex.what();
    s.ready.fetch_add(1);
    return;
  }
  // First touch of this executor's shards, on the placement's PUs.
  for (unsigned sh = first_shard; sh < n_shards; sh += shard_step) {
    for (std::uint64_t i = 0; i < per_shard; ++i) {
      for (unsigned k = 0; k < 8; ++k) shards[sh].values[i].w[k] = mix(i * n_shards + sh + k);
    }
  }
  s.ready.fetch_add(1);
  futex_wait_while(&s.go, 0);
  for (;;) {
    e.futex.store(kBlocked);
    Client* list = e.head.exchange(nullptr, std::memory_order_acquire);
    if (!list) {
      if (s.stopping.load()) break;
      futex_wait_posted(&e.futex);
      continue;
    }
    Client* fifo = nullptr;  // oldest first
    while (list) {
      Client* next = list->next;
      list->next = fifo;
      fifo = list;
      list = next;
    }
    while (fifo) {
      Client* next = fifo->next;  // read before the post: the client may re-push itself
      serve(shards, n_shards, *fifo);
      futex_post(&fifo->futex);
      fifo = next;
    }
  }
}

void client_main(StartGate& s, Client& c, Executor& e, double read_ratio, std::uint64_t keys) {
  c.tid = current_tid();
  s.ready.fetch_add(1);
  futex_wait_while(&s.go, 0);
  std::uint64_t ops = 0, writes = 0;
  while (!s.stopping.load(std::memory_order_relaxed)) {
    const double u = static_cast<double>(next_random(c.rng) >> 11) * 0x1.0p-53;
    c.write = u >= read_ratio;
    c.key = next_random(c.rng) % keys;
    const std::uint64_t t0 = now_ns();
    c.futex.store(kBlocked);
    push(e, &c);
    futex_post(&e.futex);
    futex_wait_posted(&c.futex);
    const std::uint64_t t1 = now_ns();
    if (s.stopping.load(std::memory_order_relaxed)) break;  // maybe a shutdown nudge
    if (s.closed.load(std::memory_order_relaxed)) continue;
    c.latency.record(t1 - t0);
    writes += c.write ? 1 : 0;
    c.writes.store(writes, std::memory_order_relaxed);
    c.ops.store(++ops, std::memory_order_relaxed);
  }
}

void check_params(const KvParams& p) {
  if (p.clients == 0 || p.executors == 0 || p.keys == 0 || p.shards == 0 || p.cpus.empty() ||
      p.shards > p.keys || !(p.read_ratio >= 0 && p.read_ratio <= 1)) {
    throw WorkloadError(fmt::format(
        "kv: clients ({}), executors ({}), keys ({}), shards ({}, at most keys) and cpus ({} "
        "PUs) must be non-zero and read_ratio ({}) in [0, 1]",
        p.clients, p.executors, p.keys, p.shards, p.cpus.size(), p.read_ratio));
  }
}

// The shards over the table and every thread's state, shared by the threads.
struct KvThreads {
  StartGate gate;
  std::unique_ptr<Shard[]> shards;
  std::vector<std::unique_ptr<Executor>> executors;
  std::vector<std::unique_ptr<Client>> clients;
};

// Carves `table` into p.shards shards of `per_shard` values and makes the
// executors and the clients (each with its own random seed).
void lay_out(const KvParams& p, const Mapping& table, std::uint64_t per_shard, KvThreads& kv) {
  kv.shards.reset(new Shard[p.shards]);
  for (unsigned s = 0; s < p.shards; ++s)
    kv.shards[s].values = static_cast<Value*>(table.data()) + std::size_t{s} * per_shard;
  for (unsigned i = 0; i < p.executors; ++i) kv.executors.push_back(std::make_unique<Executor>());
  for (unsigned i = 0; i < p.clients; ++i) {
    kv.clients.push_back(std::make_unique<Client>());
    kv.clients.back()->rng = mix(0x5eed0000ULL + i) | 1;
  }
}

// The thread group's stop_and_nudge: every thread returns soon.
void nudge_all(KvThreads& kv) {
  stop_and_open(kv.gate);
  for (auto& e : kv.executors) futex_post(&e->futex);
  for (auto& c : kv.clients) futex_post(&c->futex);
}

// Spawns the executors (executor i owns shards i, i + executors, ...) and
// the clients (client i asks executor i % executors), all on p.cpus.
void start_threads(const KvParams& p, const placement::MemBind& bind, std::uint64_t per_shard,
                   KvThreads& kv, ThreadGroup& threads) {
  for (unsigned i = 0; i < p.executors; ++i) {
    threads.spawn(
        p.cpus,
        [&s = kv.gate, &e = *kv.executors[i], &bind, sh = kv.shards.get(), n = p.shards, i,
         step = p.executors, per_shard] { executor_main(s, e, bind, sh, n, i, step, per_shard); },
        fmt::format("kv: executor {}", i + 1));
  }
  for (unsigned i = 0; i < p.clients; ++i) {
    threads.spawn(
        p.cpus,
        [&s = kv.gate, &c = *kv.clients[i], &e = *kv.executors[i % p.executors],
         ratio = p.read_ratio, keys = p.keys] { client_main(s, c, e, ratio, keys); },
        fmt::format("kv: client {}", i + 1));
  }
}

// Waits until every thread is parked at the gate. Throws WorkloadError when
// an executor could not bind its memory (it then did not run).
void wait_ready(const KvParams& p, const KvThreads& kv) {
  wait_until_ready(kv.gate, p.executors + p.clients);
  for (auto& e : kv.executors) {
    if (!e->bind_error.empty()) throw WorkloadError(fmt::format("kv: {}", e->bind_error));
  }
}

// The timed window over the clients (first group) and executors (second);
// live progress is the clients' operations so far.
WindowResult run_window(const KvParams& p, KvThreads& kv, const std::atomic<bool>* stop) {
  WindowGroups groups;
  for (auto& c : kv.clients) groups.first.push_back(c->tid);
  for (auto& e : kv.executors) groups.second.push_back(e->tid);
  return run_timed_window(
      kv.gate.go, kv.gate.closed, groups, p.duration, stop, p.observer,
      [&] {
        std::uint64_t ops = 0;
        for (const auto& c : kv.clients) ops += c->ops.load(std::memory_order_relaxed);
        return ops;
      },
      p.stall_after);
}

KvResult collect_result(const placement::MemBind& bind, const KvThreads& kv,
                        const WindowResult& w) {
  KvResult r;
  r.membind = kv.executors.front()->bound ? bind.text : "none (no NUMA support)";
  r.duration_s = w.duration_s;
  r.client_delay = w.first_delay;
  r.executor_delay = w.second_delay;
  for (auto& c : kv.clients) {
    r.ops += c->ops.load();
    r.writes += c->writes.load();
    r.op_latency.merge(c->latency);
  }
  r.reads = r.ops - r.writes;
  r.ops_per_s = r.duration_s > 0 ? static_cast<double>(r.ops) / r.duration_s : 0;
  return r;
}

}  // namespace

placement::MemBind resolve_table_membind(const std::string& policy) {
  static std::mutex mu;
  static std::optional<topology::Topology> live;  // loaded once per process
  try {
    std::lock_guard<std::mutex> lock(mu);
    if (!live) live = topology::load_topology({});
    return placement::parse_membind(policy, *live);
  } catch (const std::exception& e) {
    throw WorkloadError(fmt::format("kv: {}", e.what()));
  }
}

KvResult run_kv(const KvParams& p, const std::atomic<bool>* stop) {
  check_params(p);
  const std::uint64_t per_shard = (p.keys + p.shards - 1) / p.shards;
  Mapping table(per_shard * p.shards * sizeof(Value));
  const placement::MemBind bind = resolve_table_membind(p.membind);
  // Declared before the thread group: destroyed after every thread is joined.
  KvThreads kv;
  lay_out(p, table, per_shard, kv);
  ThreadGroup threads([&kv] { nudge_all(kv); });
  start_threads(p, bind, per_shard, kv, threads);
  wait_ready(p, kv);
  const WindowResult w = run_window(p, kv, stop);
  threads.join_all();
  if (!w.stalled.empty()) throw WorkloadError("kv: " + w.stalled);
  return collect_result(bind, kv, w);
}

}  // namespace schedrig::workloads
