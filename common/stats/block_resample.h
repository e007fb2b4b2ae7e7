// Iterations drawn from one long real run (bench/time_to_verdict, the
// sequential rule's tests): the mean of a block of consecutive per-second
// values at a uniformly drawn start, the moving-block bootstrap (Kuensch,
// "The jackknife and the bootstrap for general stationary observations",
// Ann. Statist. 1989), so each drawn iteration keeps the run's
// autocorrelation and its modes inside the block.
#pragma once

#include <cstddef>
#include <span>

#include "common/stats/normal_draws.h"

namespace schedrig::stats {

// The mean of series[s .. s + block) for s uniform in [0, size - block].
// Throws std::invalid_argument when block is 0 or longer than the series.
double block_mean(std::span<const double> series, std::size_t block, NormalDraws& draws);

}  // namespace schedrig::stats
