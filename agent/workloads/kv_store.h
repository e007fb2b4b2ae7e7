// The kv contention workload: the shape that exposed NI_RANDOM (CockroachDB
// kv via the Phoronix cockroach test: 128..1024 connections, a single kv
// table, 60..95 % reads; Go multiplexes them over GOMAXPROCS threads).
//
// C client threads ("connections") each keep one request outstanding: pick
// read (probability read_ratio) or write and a key uniform in [0, K), push
// the request on executor (client % E)'s lock-free queue, post that
// executor's futex and sleep on its own futex until the executor posts it
// back. E executor threads (default: one per allowed PU, like GOMAXPROCS)
// each take their whole queue, and for every request lock the key's shard
// (K keys striped over S shards, key k in shard k % S, one std::mutex per
// shard), do a small amount of work under the lock (read: fold the key's
// 64-byte value into a checksum; write: rewrite the 8 words of the value),
// unlock, and post the client. Nothing spins: every wait is FUTEX_WAIT
// (queues) or a mutex (glibc futex-based).
//
// Measured: ops_per_s = ops completed in the window / window; op latency =
// client's clock before the push -> after its wait returns; per-thread
// scheduler delay from /proc/self/task/TID/schedstat.
// Table memory: 64 bytes per key, mmap'd, first touched by the executors
// (pinned to the placement) after each set its memory policy to `membind`
// (placement::apply_membind: a thread policy, MPOL_LOCAL / MPOL_BIND /
// MPOL_INTERLEAVE), so the table's pages follow the binding.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agent/placement/membind.h"
#include "agent/workloads/latency_histogram.h"
#include "agent/workloads/schedstat.h"
#include "agent/workloads/timed_window.h"
#include "agent/workloads/window_observer.h"
#include "agent/workloads/workload_error.h"

namespace schedrig::workloads {

struct KvParams {
  unsigned clients = 128;         // C, >= 1
  unsigned executors = 1;         // E, >= 1
  double read_ratio = 0.60;       // in [0, 1]
  std::uint64_t keys = 100000;    // K, >= 1
  unsigned shards = 64;           // S, in [1, K]
  std::string membind = "local";  // local | interleave | node:N
  std::vector<int> cpus;          // the placement, non-empty; clients and executors share it
  std::chrono::nanoseconds duration{std::chrono::seconds(1)};
  WindowObserver observer;  // optional: told the window's threads and progress
  // The stall watchdog's limit (timed_window.h): no progress this long with
  // every thread asleep fails the run as a lost wakeup.
  std::chrono::milliseconds stall_after{kStallAfter};
};

struct KvResult {
  // Ops that completed while the window was open (an op in flight when it
  // closed may count); one histogram sample each.
  std::uint64_t ops = 0;
  std::uint64_t reads = 0;                 // of which reads
  std::uint64_t writes = 0;                // of which writes
  double duration_s = 0;                   // the window: start signal -> close
  double ops_per_s = 0;                    // ops / duration_s
  LatencyHistogram op_latency;             // ns, one sample per counted op
  std::optional<SchedDelay> client_delay;  // over the window; nullopt without schedstat
  std::optional<SchedDelay> executor_delay;
  // The policy as applied: "local", "node:N", "interleave", or
  // "none (no NUMA support)" where libnuma reports none.
  std::string membind;
};

// The table's memory binding, ready for the executors: `policy` ("local" |
// "interleave" | "node:N") resolved against this machine's live topology
// with agent/placement/membind (parse_membind). Throws WorkloadError naming
// the policy when it does not fit the machine (no such node).
placement::MemBind resolve_table_membind(const std::string& policy);

// Runs the load for params.duration or until *stop (checked every 10 ms).
// Every thread has been joined and the table unmapped when this returns or
// throws. Throws WorkloadError for invalid params, a table that cannot be
// mapped, a binding that does not fit the machine or that the kernel refuses,
// or a thread that cannot be started or pinned.
KvResult run_kv(const KvParams& params, const std::atomic<bool>* stop = nullptr);

}  // namespace schedrig::workloads
