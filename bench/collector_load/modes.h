// The three measurements of collector_load, one round each; main.cpp
// repeats and interleaves them and reports medians.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/collector_load/bench_dir.h"
#include "bench/collector_load/options.h"
#include "bench/collector_load/proc_stats.h"
#include "bench/collector_load/stage.h"

namespace schedrig::bench {

// options.agents agents, each keeping at most options.window envelopes
// unacked, for options.seconds.
struct ThroughputRound {
  double envelopes_per_s = 0;  // acked during the interval / its wall time
  std::uint64_t acked = 0;     // every envelope acked, setup and drain included
  std::int64_t stored = 0;     // envelopes in the store after serve stopped
  CpuUse cpu;
};
ThroughputRound run_throughput(const BenchDir& dir, const Options& options, int round);

// options.agents agents, each one Sample every 1/options.hz s, for options.seconds.
struct LatencyRound {
  std::size_t sends = 0;
  std::size_t unacked = 0;  // no ack within 5 s
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
  CpuUse cpu;
};
LatencyRound run_latency(const BenchDir& dir, const Options& options, int round);

// options.idle agents connected (Hello + Topology), then silent.
struct ScaleRound {
  std::size_t agents = 0;
  double connect_s = 0;        // connecting all of them
  MemoryKib serve_before;      // serve with no agent
  MemoryKib serve_after;       // with all of them, 2 s after the last
  double kib_per_agent = 0;    // RSS delta / agents
  std::size_t still_open = 0;  // links open at the end
  double load_1m = 0;
};
ScaleRound run_scale(const BenchDir& dir, const Options& options, int round);

}  // namespace schedrig::bench
