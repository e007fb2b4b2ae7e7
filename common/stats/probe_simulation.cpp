#include "common/stats/probe_simulation.h"

#include <utility>
#include <vector>

#include "common/stats/block_resample.h"
#include "common/stats/normal_draws.h"

namespace schedrig::stats {

ProbeRates simulate_probes(std::span<const double> series, const ProbeSimulation& sim,
                           const SequentialRule& rule) {
  NormalDraws draws(sim.seed);
  const auto next_pair = [&] {
    const double as_found = block_mean(series, sim.block_values, draws);
    return std::pair{as_found, block_mean(series, sim.block_values, draws) * (1 + sim.shift)};
  };
  ProbeRates r;
  std::vector<double> a, b;
  for (int i = 0; i < sim.probes; ++i) {
    const SequentialLook look = run_sequential(next_pair, rule);
    r.sequential_effect += look.settled == Settled::kEffect;
    r.sequential_no_effect += look.settled == Settled::kNoEffect;
    r.sequential_mean_pairs += look.pairs;
    a.clear();
    b.clear();
    for (int k = 0; k < sim.fixed_pairs; ++k) {
      const auto [x, y] = next_pair();
      a.push_back(x);
      b.push_back(y);
    }
    r.fixed_effect += fixed_look(a, b).settled == Settled::kEffect;
  }
  const double n = sim.probes;
  r.sequential_effect /= n;
  r.sequential_no_effect /= n;
  r.sequential_mean_pairs /= n;
  r.fixed_effect /= n;
  return r;
}

}  // namespace schedrig::stats
