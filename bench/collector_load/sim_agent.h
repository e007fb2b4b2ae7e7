// One simulated agent: a real agent link (agent/link HostLink over wss with
// its own token, trusting the bench's CA) that says Hello and Topology and
// then streams whatever the mode sends.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agent/link/host_link.h"
#include "bench/collector_load/bench_dir.h"

namespace schedrig::bench {

class SimAgent {
 public:
  explicit SimAgent(SimAgentSpec spec);

  // Dials `url` with the agent's token, trusting `ca_file`, sends Hello
  // and Topology and waits for both acks, all within `timeout`. Throws
  // link::LinkError, or std::runtime_error when an ack does not come.
  void connect(const std::string& url, const std::string& ca_file,
               std::chrono::milliseconds timeout);
  // Sends RunStarted of the agent's queued run and waits for its ack.
  void start_run(std::chrono::milliseconds timeout);
  // Sends RunFinished (ok) of that run and waits for its ack (so serve's
  // queue sees the run end rather than a disconnect).
  void finish_run(std::chrono::milliseconds timeout);

  // Sends `env` (the link stamps it); returns its seq.
  std::uint64_t send(schedrig::v1::Envelope env) { return link_.send(std::move(env)); }
  // Waits for the ack of `seq`; throws std::runtime_error on timeout or close.
  void expect_acked(std::uint64_t seq, std::chrono::milliseconds timeout);

  link::HostLink& link() { return link_; }
  const SimAgentSpec& spec() const { return spec_; }

 private:
  SimAgentSpec spec_;
  link::HostLink link_;
};

using SimAgents = std::vector<std::unique_ptr<SimAgent>>;

// Connects one SimAgent per spec on `threads` threads (connect(), then
// start_run() when `start_runs`). Throws the first failure.
SimAgents connect_agents(const std::vector<SimAgentSpec>& specs, const std::string& url,
                         const std::string& ca_file, bool start_runs, std::size_t threads = 8);

}  // namespace schedrig::bench
