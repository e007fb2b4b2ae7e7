// Latency: every agent sends one Sample every 1/hz s (agents spread evenly
// over the period, as independent boxes would be) and times its Ack.
#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "bench/collector_load/modes.h"
#include "bench/collector_load/percentile.h"
#include "bench/collector_load/sim_agent.h"
#include "bench/collector_load/sim_envelopes.h"
#include "bench/collector_load/stage.h"
#include "bench/collector_load/thread_group.h"

namespace schedrig::bench {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::seconds kAckTimeout{5};

struct AgentTimes {
  std::vector<double> ms;  // send -> ack, one per acked Sample
  std::size_t unacked = 0;
};

// One agent's 10 Hz loop from `start` (its phase) until `end`.
AgentTimes tick(SimAgent& agent, Clock::time_point start, Clock::time_point end,
                Clock::duration period) {
  AgentTimes out;
  std::uint64_t n = 0;
  for (Clock::time_point at = start; at < end && !agent.link().closed(); at += period) {
    std::this_thread::sleep_until(at);
    const Clock::time_point sent = Clock::now();
    const std::uint64_t seq = agent.send(sim_sample(agent.spec().run_id, n++));
    if (agent.link().wait_acked(seq, kAckTimeout)) {
      out.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
    } else {
      ++out.unacked;
    }
  }
  return out;
}

}  // namespace

LatencyRound run_latency(const BenchDir& dir, const Options& options, int round) {
  Stage stage(dir, options, fmt::format("latency-{}", round), options.agents);
  SimAgents agents =
      connect_agents(stage.specs(), stage.serve().agent_url(), stage.ca_file(), true);
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / options.hz));
  const Clock::time_point start = Clock::now() + std::chrono::milliseconds(100);
  const Clock::time_point end = start + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(options.seconds));
  std::vector<AgentTimes> times(agents.size());
  CpuWindow window(stage.serve().pid());
  ThreadGroup threads;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const auto phase = period * static_cast<long>(i) / static_cast<long>(agents.size());
    threads.spawn([&, i, phase] { times[i] = tick(*agents[i], start + phase, end, period); });
  }
  threads.join();
  window.stop();
  for (auto& a : agents) a->finish_run(kAckTimeout);
  LatencyRound r;
  std::vector<double> all;
  for (const auto& t : times) {
    all.insert(all.end(), t.ms.begin(), t.ms.end());
    r.unacked += t.unacked;
  }
  r.sends = all.size() + r.unacked;
  r.p50_ms = percentile(all, 0.50);
  r.p99_ms = percentile(all, 0.99);
  r.max_ms = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
  r.cpu = window.use();
  return r;
}

}  // namespace schedrig::bench
