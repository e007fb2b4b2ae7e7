// collector_load's output: a short table for people and --json for notes.
#pragma once

#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/collector_load/modes.h"
#include "bench/collector_load/options.h"

namespace schedrig::bench {

// Every round of every mode that ran, in the order they ran.
struct Rounds {
  std::vector<ThroughputRound> throughput;
  std::vector<LatencyRound> latency;
  std::vector<ScaleRound> scale;
  double load_before = 0;  // 1-minute load average before the first round
};

// Medians over rounds first, then each round.
void print_table(std::ostream& out, const Options& options, const Rounds& rounds);
nlohmann::json rounds_json(const Options& options, const Rounds& rounds);

// One line per finished round, for progress on stderr.
void print_progress(std::ostream& out, const ThroughputRound& r);
void print_progress(std::ostream& out, const LatencyRound& r);
void print_progress(std::ostream& out, const ScaleRound& r);

}  // namespace schedrig::bench
