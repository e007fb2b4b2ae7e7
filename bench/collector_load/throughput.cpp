// Throughput: every agent streams Samples and IterationResults of its run as
// fast as acks allow (at most W unacked), for T seconds.
#include <atomic>
#include <thread>

#include <fmt/format.h>

#include "bench/collector_load/modes.h"
#include "bench/collector_load/sim_agent.h"
#include "bench/collector_load/sim_envelopes.h"
#include "bench/collector_load/stage.h"
#include "bench/collector_load/thread_group.h"

namespace schedrig::bench {

namespace {

using std::chrono::milliseconds;

// Sum of acked_seq() over `agents` (seqs start at 1, so: envelopes acked).
std::uint64_t acked_total(SimAgents& agents) {
  std::uint64_t n = 0;
  for (auto& a : agents) n += a->link().acked_seq();
  return n;
}

// One agent's sender: refills its window by half each time, until `stop`;
// returns its last seq.
std::uint64_t stream(SimAgent& agent, std::uint64_t window, const std::atomic<bool>& stop) {
  link::HostLink& link = agent.link();
  std::uint64_t last = link.acked_seq();
  for (std::uint64_t n = 0; !stop && !link.closed();) {
    while (!stop && last - link.acked_seq() < window) {
      last = agent.send(sim_load_envelope(agent.spec().run_id, n++));
    }
    link.wait_acked(last - window / 2, milliseconds(200));
  }
  return last;
}

}  // namespace

ThroughputRound run_throughput(const BenchDir& dir, const Options& options, int round) {
  Stage stage(dir, options, fmt::format("throughput-{}", round), options.agents);
  SimAgents agents =
      connect_agents(stage.specs(), stage.serve().agent_url(), stage.ca_file(), true);
  std::vector<std::uint64_t> last(agents.size());
  ThroughputRound r;
  {
    ThreadGroup senders;
    const std::uint64_t acked0 = acked_total(agents);
    CpuWindow window(stage.serve().pid());
    for (std::size_t i = 0; i < agents.size(); ++i) {
      senders.spawn([&, i] { last[i] = stream(*agents[i], options.window, senders.stop_flag()); });
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(options.seconds));
    const std::uint64_t acked1 = acked_total(agents);
    window.stop();
    senders.join();
    r.envelopes_per_s = static_cast<double>(acked1 - acked0) / window.wall_s();
    r.cpu = window.use();
  }
  for (std::size_t i = 0; i < agents.size(); ++i)
    agents[i]->expect_acked(last[i], milliseconds(30000));
  for (auto& a : agents) a->finish_run(milliseconds(30000));
  r.acked = acked_total(agents);
  agents.clear();  // closes the links
  r.stored = stage.stop_and_count();
  return r;
}

}  // namespace schedrig::bench
