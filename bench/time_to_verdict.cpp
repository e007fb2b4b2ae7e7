// bench/time_to_verdict: how many pairs the sequential rule
// (common/stats/sequential.h) spends before its verdict is settled, against
// a fixed 10 pairs per side, at the error rates each reaches, on iterations
// resampled from the long real runs in ../shared/fixtures/ab-runs
// (common/stats/probe_simulation.h). Goal (issue #20): >= 2x fewer pairs
// at no higher false-alarm and miss rates. Then the probes `bisect-knobs`'
// group search (host/bisect/group_search.h) spends on a simulated kernel
// of 40 features (one that doubles the rate, one pair that adds 30% only
// together, at random places; 2% noise per iteration) against testing each
// feature alone, and how often each names exactly the right ones.
//
//   time_to_verdict [--fixtures DIR] [--probes N] [--searches N] [--json]
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "common/stats/normal_draws.h"
#include "common/stats/probe_simulation.h"
#include "host/bisect/group_search.h"
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
  return schedrig::compare::read_variant_values(dir + "/ab-runs/" + src.file, src.variant,
                                                60);  // the ramp-up minute
}

// One simulated kernel: `single` doubles the rate when flipped, `pair`
// adds 30% only when both are.
struct Kernel {
  int single = 0;
  std::array<int, 2> pair{};
  double rate(const std::vector<int>& flipped) const {
    const auto has = [&](int u) {
      return std::find(flipped.begin(), flipped.end(), u) != flipped.end();
    };
    return 1000 * (has(single) ? 2 : 1) * (has(pair[0]) && has(pair[1]) ? 1.3 : 1);
  }
};

struct SearchStats {
  double probes = 0, pairs = 0, exact = 0, false_units = 0;
  int p90_probes = 0, max_probes = 0;
};

SearchStats run_searches(int group_size, int searches) {
  constexpr int kFeatures = 40;
  std::vector<schedrig::bisect::Unit> units;
  for (int i = 0; i < kFeatures; ++i)
    units.push_back({fmt::format("NO_F{}", i), fmt::format("sched_features:F{}", i)});
  schedrig::stats::NormalDraws draws(99);
  SearchStats out;
  std::vector<int> counts;
  for (int s = 0; s < searches; ++s) {
    Kernel k;
    std::vector<int> order(kFeatures);
    for (int i = 0; i < kFeatures; ++i) order[i] = i;
    for (int i = kFeatures - 1; i > 0; --i)
      std::swap(order[i], order[static_cast<int>(draws.uniform() * (i + 1))]);
    k.single = order[0];
    k.pair = {std::min(order[1], order[2]), std::max(order[1], order[2])};
    int pairs = 0;
    const auto r =
        schedrig::bisect::group_search(units, group_size, [&](const std::vector<int>& u) {
          const double flipped = k.rate(u);
          const auto look = schedrig::stats::run_sequential(
              [&] {
                return std::pair{k.rate({}) * (1 + 0.02 * draws.next()),
                                 flipped * (1 + 0.02 * draws.next())};
              },
              {});
          pairs += look.pairs;
          return look;
        });
    std::set<std::vector<int>> found;
    int units_found = 0;
    for (auto f : r.findings) {
      std::sort(f.units.begin(), f.units.end());
      units_found += static_cast<int>(f.units.size());
      found.insert(f.units);
    }
    const std::set<std::vector<int>> want = {{k.single}, {k.pair[0], k.pair[1]}};
    out.exact += found == want;
    for (const auto& f : found)
      if (!want.count(f)) out.false_units += static_cast<double>(f.size());
    out.probes += r.probes;
    out.pairs += pairs;
    counts.push_back(r.probes);
  }
  std::sort(counts.begin(), counts.end());
  out.p90_probes = counts[counts.size() * 9 / 10];
  if (std::getenv("TTV_COUNTS"))
    for (const int c : counts) std::fprintf(stderr, "%d ", c);
  out.max_probes = counts.back();
  out.probes /= searches;
  out.pairs /= searches;
  out.exact /= searches;
  out.false_units /= searches;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mean pairs to a settled sequential verdict vs a fixed 10, on resampled real runs"};
  std::string fixtures = std::string(SCHEDRIG_SOURCE_DIR) + "/../shared/fixtures";
  int probes = 2000;
  int searches = 200;
  bool json = false;
  app.add_option("--fixtures", fixtures, "the fixtures directory (ab-runs/ inside)");
  app.add_option("--probes", probes, "simulated probes per row")->check(CLI::Range(100, 100000));
  app.add_option("--searches", searches, "simulated bisect searches per group size")
      ->check(CLI::Range(1, 100000));
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
  nlohmann::json bisect = nlohmann::json::array();
  if (!json)
    std::printf(
        "\nbisect on a simulated 40-feature kernel (%d searches each)\n%-22s %8s %5s %5s %10s %8s "
        "%12s\n",
        searches, "search", "probes", "p90", "max", "pairs", "exact", "false units");
  for (const int g : {40, 8, 1}) {
    const SearchStats st = run_searches(g, searches);
    const std::string name = g == 1 ? "each alone (g=1)" : fmt::format("groups of {}", g);
    bisect.push_back({{"search", name},
                      {"group_size", g},
                      {"mean_probes", st.probes},
                      {"p90_probes", st.p90_probes},
                      {"max_probes", st.max_probes},
                      {"mean_pairs", st.pairs},
                      {"exact_rate", st.exact},
                      {"false_units_per_search", st.false_units}});
    if (!json)
      std::printf("%-22s %8.1f %5d %5d %10.1f %8.3f %12.3f\n", name.c_str(), st.probes,
                  st.p90_probes, st.max_probes, st.pairs, st.exact, st.false_units);
  }
  if (json)
    std::cout << nlohmann::json{{"probes", probes}, {"rows", rows}, {"bisect", bisect}}.dump(2)
              << "\n";
  return 0;
}
