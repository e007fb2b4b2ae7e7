#include "common/stats/block_resample.h"

#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

namespace schedrig::stats {

double block_mean(std::span<const double> series, std::size_t block, NormalDraws& draws) {
  if (block == 0 || block > series.size())
    throw std::invalid_argument(
        fmt::format("block of {} values from a series of {}", block, series.size()));
  const std::size_t starts = series.size() - block + 1;
  auto start = static_cast<std::size_t>(draws.uniform() * static_cast<double>(starts));
  if (start >= starts) start = starts - 1;
  const auto first = series.begin() + static_cast<std::ptrdiff_t>(start);
  return std::accumulate(first, first + static_cast<std::ptrdiff_t>(block), 0.0) /
         static_cast<double>(block);
}

}  // namespace schedrig::stats
