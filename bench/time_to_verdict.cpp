// bench/time_to_verdict: how many pairs the sequential rule
// (common/stats/sequential.h) spends before its verdict is settled, against
// a fixed 10 pairs per side, at the error rates each reaches, on iterations
// resampled from the long real runs in ../shared/fixtures/ab-runs
// (common/stats/probe_simulation.h). Goal (issue #20): >= 2x fewer pairs
// at no higher false-alarm and miss rates.
//
//   time_to_verdict [--fixtures DIR] [--probes N] [--json]
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "common/stats/probe_simulation.h"
#include "host/compare/series_csv.h"

namespace {

using schedrig::stats::ProbeRates;
using schedrig::stats::ProbeSimulation;

struct Source {
  std::string file;
  std::string variant;
};

const std::vector<Source> kSources = {
    {"vondra_pgbench_i5_persecond_ro_s300_c16.csv", "k3.12.58"},
    {"vondra_pgbench_i5_persecond_ro_s300_c16.csv", "baseline"},
    {"vondra_pgbench_i5_persecond_rw_s30_c16_sawtooth.csv", "baseline"},
};

std::vector<double> stable_series(const std::string& dir, const Source& src) {
  for (auto& s : schedrig::compare::read_series_csv(dir + "/ab-runs/" + src.file)) {
    if (s.name != src.variant) continue;
    s.values.erase(s.values.begin(), s.values.begin() + 60);  // the ramp-up minute
    return s.values;
  }
  throw std::runtime_error(src.file + ": no variant " + src.variant);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mean pairs to a settled sequential verdict vs a fixed 10, on resampled real runs"};
  std::string fixtures = std::string(SCHEDRIG_SOURCE_DIR) + "/../shared/fixtures";
  int probes = 2000;
  bool json = false;
  app.add_option("--fixtures", fixtures, "the fixtures directory (ab-runs/ inside)");
  app.add_option("--probes", probes, "simulated probes per row")->check(CLI::Range(100, 100000));
  app.add_flag("--json", json, "print JSON");
  CLI11_PARSE(app, argc, argv);

  nlohmann::json rows = nlohmann::json::array();
  if (!json)
    std::printf("%-52s %5s %6s | %8s %8s %8s | %8s | %s\n", "series", "iter", "shift", "seq eff",
                "no eff", "pairs", "fixed10", "fewer");
  std::uint64_t seed = 1;
  for (const Source& src : kSources) {
    const auto series = stable_series(fixtures, src);
    for (const std::size_t block : {5u, 30u}) {
      for (const double shift : {0.0, 0.02, 0.05, 0.10}) {
        const ProbeRates r = schedrig::stats::simulate_probes(
            series, {.shift = shift, .block_values = block, .probes = probes, .seed = seed++}, {});
        const double fewer = 10 / r.sequential_mean_pairs;
        rows.push_back({{"series", src.file + ":" + src.variant},
                        {"iteration_s", block},
                        {"shift", shift},
                        {"sequential_effect", r.sequential_effect},
                        {"sequential_no_effect", r.sequential_no_effect},
                        {"sequential_mean_pairs", r.sequential_mean_pairs},
                        {"fixed10_effect", r.fixed_effect},
                        {"fewer_pairs_x", fewer}});
        if (!json)
          std::printf("%-52s %4zus %+5.0f%% | %8.3f %8.3f %8.2f | %8.3f | %.2fx\n",
                      (src.file.substr(15) + ":" + src.variant).c_str(), block, shift * 100,
                      r.sequential_effect, r.sequential_no_effect, r.sequential_mean_pairs,
                      r.fixed_effect, fewer);
      }
    }
  }
  if (json) std::cout << nlohmann::json{{"probes", probes}, {"rows", rows}}.dump(2) << "\n";
  return 0;
}
