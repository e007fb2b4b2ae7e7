// How the sequential rule fares against a fixed number of pairs on
// iterations resampled from a long real run (bench/time_to_verdict and
// tests/common/stats/sequential_real_test.cpp): each simulated probe draws
// its as-found and flipped iterations as block means of the same series
// (common/stats/block_resample.h), the flipped side scaled by 1 + shift.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "common/stats/sequential.h"

namespace schedrig::stats {

struct ProbeSimulation {
  double shift = 0;               // true relative change of the flipped side (0.05: +5%)
  std::size_t block_values = 30;  // values per iteration (30 per-second values: a 30 s iteration)
  int probes = 1000;
  int fixed_pairs = 10;  // the fixed design compared against
  std::uint64_t seed = 1;
};

struct ProbeRates {
  double sequential_effect = 0;      // share of sequential probes that ended "effect"
  double sequential_no_effect = 0;   // ... "no effect"
  double sequential_mean_pairs = 0;  // pairs per sequential probe
  double fixed_effect = 0;           // share of fixed probes whose 95% interval excludes 0
};

// Runs `sim.probes` sequential probes (rule) and as many fixed ones on
// independent draws. Throws std::invalid_argument for a series shorter than
// a block or a bad rule.
ProbeRates simulate_probes(std::span<const double> series, const ProbeSimulation& sim,
                           const SequentialRule& rule);

}  // namespace schedrig::stats
