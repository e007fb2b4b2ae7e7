// Scale: serve's resident memory with no agent, then with N idle agents
// connected (Hello + Topology each, then silence).
#include <thread>

#include <fmt/format.h>

#include "bench/collector_load/modes.h"
#include "bench/collector_load/sim_agent.h"
#include "bench/collector_load/stage.h"

namespace schedrig::bench {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::seconds kSettle{2};

}  // namespace

ScaleRound run_scale(const BenchDir& dir, const Options& options, int round) {
  Stage stage(dir, options, fmt::format("scale-{}", round), options.idle, false);
  std::this_thread::sleep_for(kSettle);
  ScaleRound r;
  r.agents = options.idle;
  r.serve_before = memory_of(stage.serve().pid());
  const Clock::time_point t0 = Clock::now();
  SimAgents agents =
      connect_agents(stage.specs(), stage.serve().agent_url(), stage.ca_file(), false);
  r.connect_s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::this_thread::sleep_for(kSettle);
  r.serve_after = memory_of(stage.serve().pid());
  r.kib_per_agent = static_cast<double>(r.serve_after.rss - r.serve_before.rss) /
                    static_cast<double>(std::max<std::size_t>(r.agents, 1));
  for (auto& a : agents) r.still_open += a->link().closed() ? 0 : 1;
  r.load_1m = load_average_1m();
  return r;
}

}  // namespace schedrig::bench
