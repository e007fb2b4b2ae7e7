#include "agent/workloads/wakeup_storm.h"

#include <array>
#include <memory>

#include <fmt/format.h>

#include "agent/workloads/clock.h"
#include "agent/workloads/futex.h"
#include "agent/workloads/thread_group.h"
#include "agent/workloads/timed_window.h"

namespace schedrig::workloads {
namespace {

constexpr unsigned kMatrix = 16;  // one think op: a 16x16 matrix product
// schbench reads gettimeofday(2) and records no delta of 0 us.
constexpr std::uint64_t kSchbenchResolutionNs = 1000;

struct Worker;

struct alignas(64) MessageThread {
  std::atomic<std::uint32_t> futex{kBlocked};
  std::atomic<Worker*> head{nullptr};  // workers waiting for a reply (LIFO)
  pid_t tid = 0;
};

struct alignas(64) Worker {
  // Hot line: what the message thread touches (schbench keeps the futex and
  // wake_time in one cacheline too).
  std::atomic<std::uint32_t> futex{kBlocked};
  std::atomic<std::uint64_t> wake_time_ns{0};
  Worker* next = nullptr;  // list link, published by the CAS that pushes us
  MessageThread* msg = nullptr;
  // Worker-private from here on.
  alignas(64) std::atomic<std::uint64_t> requests{0};
  std::atomic<std::uint64_t> early_replies{0};  // replies posted before it slept
  pid_t tid = 0;
  LatencyHistogram wakeup;
  LatencyHistogram request;
  LatencyHistogram early_visible;  // early replies of >= 1 us (schbench_view())
  std::array<std::uint64_t, 3 * kMatrix * kMatrix> m{};
};

void think(Worker& w, unsigned ops) {
  std::uint64_t* a = w.m.data();
  std::uint64_t* b = a + kMatrix * kMatrix;
  std::uint64_t* c = b + kMatrix * kMatrix;
  for (unsigned op = 0; op < ops; ++op) {
    for (unsigned i = 0; i < kMatrix; ++i) {
      for (unsigned j = 0; j < kMatrix; ++j) {
        std::uint64_t sum = 0;
        for (unsigned k = 0; k < kMatrix; ++k) sum += a[i * kMatrix + k] * b[k * kMatrix + j];
        c[i * kMatrix + j] = sum;
      }
    }
    a[op % (kMatrix * kMatrix)] += c[(op * 7) % (kMatrix * kMatrix)];  // keep it live
  }
}

// The worker's push and post and the message thread's kBlocked store and
// list exchange are a Dekker pair: either the exchange sees the push or the
// post lands after the kBlocked store. That needs all four in the one total
// order of seq_cst operations; with a release push and an acquire exchange
// the C++ model lets the exchange pass the store and the wakeup be lost.
void push(MessageThread& m, Worker* w) {
  Worker* old = m.head.load(std::memory_order_relaxed);
  do {
    w->next = old;
  } while (
      !m.head.compare_exchange_weak(old, w, std::memory_order_seq_cst, std::memory_order_relaxed));
}

// schbench xlist_wake_all: one clock read for the whole list.
void wake_all(MessageThread& m) {
  Worker* list = m.head.exchange(nullptr, std::memory_order_seq_cst);  // see push()
  if (!list) return;
  const std::uint64_t t = now_ns();
  while (list) {
    Worker* next = list->next;  // read before the post: the worker may re-push itself
    list->wake_time_ns.store(t, std::memory_order_relaxed);
    futex_post(&list->futex);
    list = next;
  }
}

void message_main(StartGate& s, MessageThread& m) {
  m.tid = current_tid();
  s.ready.fetch_add(1);
  futex_wait_while(&s.go, 0);
  for (;;) {
    m.futex.store(kBlocked);
    wake_all(m);
    if (s.stopping.load()) {
      wake_all(m);
      break;
    }
    futex_wait_posted(&m.futex);
  }
}

void worker_main(StartGate& s, Worker& w, unsigned think_ops) {
  w.tid = current_tid();
  s.ready.fetch_add(1);
  futex_wait_while(&s.go, 0);
  std::uint64_t done = 0;
  while (!s.stopping.load(std::memory_order_relaxed)) {
    w.futex.store(kBlocked);
    push(*w.msg, &w);
    futex_post(&w.msg->futex);
    if (s.stopping.load()) break;
    const bool slept = futex_wait_posted(&w.futex);
    const std::uint64_t t_run = now_ns();
    if (s.stopping.load(std::memory_order_relaxed)) break;  // a shutdown nudge, not a reply
    const std::uint64_t posted = w.wake_time_ns.load(std::memory_order_relaxed);
    if (think_ops) think(w, think_ops);
    const std::uint64_t t_done = now_ns();
    if (s.closed.load(std::memory_order_relaxed)) continue;
    const std::uint64_t latency_ns = t_run > posted ? t_run - posted : 0;
    if (slept) {
      w.wakeup.record(latency_ns);
    } else {
      w.early_replies.store(w.early_replies.load(std::memory_order_relaxed) + 1,
                            std::memory_order_relaxed);
      if (latency_ns >= kSchbenchResolutionNs) w.early_visible.record(latency_ns);
    }
    w.request.record(t_done - t_run);
    w.requests.store(++done, std::memory_order_relaxed);
  }
}

void check_params(const WakeupParams& p) {
  if (p.message_threads == 0 || p.workers_per_message == 0 || p.cpus.empty()) {
    throw WorkloadError(fmt::format(
        "wakeup: message_threads ({}), workers_per_message ({}) and cpus ({} PUs) must be "
        "non-zero",
        p.message_threads, p.workers_per_message, p.cpus.size()));
  }
  if (p.message_cpus.empty() != p.worker_cpus.empty()) {
    throw WorkloadError("wakeup: message_cpus and worker_cpus must be given together");
  }
}

// Every thread's state, shared by the threads.
struct WakeupThreads {
  StartGate gate;
  std::vector<std::unique_ptr<MessageThread>> msgs;
  std::vector<std::unique_ptr<Worker>> workers;
};

// Makes the message threads and workers_per_message workers for each
// (worker i replies to message thread i / workers_per_message), their
// matrices filled in.
void make_threads(const WakeupParams& p, WakeupThreads& wt) {
  const std::size_t n_workers = std::size_t{p.message_threads} * p.workers_per_message;
  for (unsigned i = 0; i < p.message_threads; ++i)
    wt.msgs.push_back(std::make_unique<MessageThread>());
  for (std::size_t i = 0; i < n_workers; ++i) {
    wt.workers.push_back(std::make_unique<Worker>());
    wt.workers.back()->msg = wt.msgs[i / p.workers_per_message].get();
    for (std::size_t k = 0; k < wt.workers.back()->m.size(); ++k)
      wt.workers.back()->m[k] = k * 2654435761u;
  }
}

// The thread group's stop_and_nudge: every thread returns soon.
void nudge_all(WakeupThreads& wt) {
  stop_and_open(wt.gate);
  for (auto& m : wt.msgs) futex_post(&m->futex);
  for (auto& w : wt.workers) futex_post(&w->futex);
}

// Spawns message thread i on the one PU split.message_cpus[i % size] and
// every worker on split.worker_cpus.
void start_threads(const WakeupParams& p, const CpuSplit& split, WakeupThreads& wt,
                   ThreadGroup& threads) {
  for (unsigned i = 0; i < p.message_threads; ++i) {
    const int pu = split.message_cpus[i % split.message_cpus.size()];
    threads.spawn(
        {pu}, [&s = wt.gate, &m = *wt.msgs[i]] { message_main(s, m); },
        fmt::format("wakeup: message thread {}", i + 1));
  }
  for (std::size_t i = 0; i < wt.workers.size(); ++i) {
    threads.spawn(
        split.worker_cpus,
        [&s = wt.gate, &w = *wt.workers[i], ops = p.think_ops] { worker_main(s, w, ops); },
        fmt::format("wakeup: worker {}", i + 1));
  }
}

// The timed window over the message threads (first group) and workers
// (second); live progress is the workers' requests so far.
WindowResult run_window(const WakeupParams& p, WakeupThreads& wt, const std::atomic<bool>* stop) {
  WindowGroups groups;
  for (auto& m : wt.msgs) groups.first.push_back(m->tid);
  for (auto& w : wt.workers) groups.second.push_back(w->tid);
  return run_timed_window(
      wt.gate.go, wt.gate.closed, groups, p.duration, stop, p.observer,
      [&] {
        std::uint64_t requests = 0;
        for (const auto& w : wt.workers) requests += w->requests.load(std::memory_order_relaxed);
        return requests;
      },
      p.stall_after);
}

WakeupResult collect_result(const CpuSplit& split, const WakeupThreads& wt,
                            const WindowResult& window) {
  WakeupResult r;
  r.duration_s = window.duration_s;
  r.message_delay = window.first_delay;
  r.worker_delay = window.second_delay;
  for (auto& w : wt.workers) {
    r.requests += w->requests.load();
    r.early_replies += w->early_replies.load();
    r.wakeup_latency.merge(w->wakeup);
    r.schbench_wakeup_latency.merge(w->wakeup);
    r.schbench_wakeup_latency.merge(w->early_visible);
    r.request_latency.merge(w->request);
  }
  r.requests_per_s = r.duration_s > 0 ? static_cast<double>(r.requests) / r.duration_s : 0;
  r.message_cpus = split.message_cpus;
  r.worker_cpus = split.worker_cpus;
  return r;
}

}  // namespace

CpuSplit split_cpus(const std::vector<int>& cpus, unsigned message_threads) {
  CpuSplit s;
  const std::size_t m = std::min<std::size_t>(cpus.size(), message_threads);
  s.message_cpus.assign(cpus.begin(), cpus.begin() + static_cast<std::ptrdiff_t>(m));
  s.worker_cpus = cpus;
  return s;
}

WakeupResult run_wakeup_storm(const WakeupParams& p, const std::atomic<bool>* stop) {
  check_params(p);
  const CpuSplit split = p.message_cpus.empty() ? split_cpus(p.cpus, p.message_threads)
                                                : CpuSplit{p.message_cpus, p.worker_cpus};
  // Declared before the thread group: destroyed after every thread is joined.
  WakeupThreads wt;
  make_threads(p, wt);
  ThreadGroup threads([&wt] { nudge_all(wt); });
  start_threads(p, split, wt, threads);
  wait_until_ready(wt.gate, static_cast<unsigned>(wt.msgs.size() + wt.workers.size()));
  const WindowResult window = run_window(p, wt, stop);
  threads.join_all();
  if (!window.stalled.empty()) throw WorkloadError("wakeup: " + window.stalled);
  return collect_result(split, wt, window);
}

}  // namespace schedrig::workloads
