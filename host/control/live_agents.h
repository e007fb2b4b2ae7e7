// The agents connected right now, as the control plane sees them
// (docs/architecture.md "Control plane"): agent_id -> its channel, last
// Hello and Topology, and the run it is running. Not thread-safe: Control
// holds one mutex around it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/collector/agent_channel.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::control {

// One connected agent.
struct LiveAgent {
  std::shared_ptr<collector::AgentChannel> channel;
  std::string instance_id;
  std::string boot_id;  // the Hello envelope's
  v1::Hello hello;
  bool has_topology = false;
  v1::Topology topology;  // meaningful when has_topology
  std::string run_id;     // the run it was given; "" = idle
  bool aborting = false;  // an Abort was sent for run_id
  // What run_id waits for, from the run's last Log with waiting set ("" =
  // not waiting): until its next Log, Sample, IterationResult or RunFinished.
  std::string waiting;
  long long last_seen_ns = 0;  // host clock when its latest envelope was taken
  // A Boot was sent for this kernel ("" = none): no run starts until the
  // agent is back (its next Hello makes a new entry).
  std::string booting;
  // Why the last Boot failed (the agent's Error), "" when none did; booting
  // is cleared with it, so the queue and another boot can go on.
  std::string boot_error;
};

class LiveAgents {
 public:
  // `channel` said Hello `env`: it becomes agent_id's entry (idle; the
  // dispatcher gives it back its run from the store).
  void connect(const std::shared_ptr<collector::AgentChannel>& channel, const v1::Envelope& env);
  // `channel` closed. When it is agent_id's entry, removes it and returns the
  // run it was running ("" for none); nullopt when it is not (a replaced one).
  std::optional<std::string> disconnect(const std::string& agent_id,
                                        const collector::AgentChannel& channel);
  // Notes a stored envelope: its Topology (for the agent's current instance),
  // its time, whether the agent's run waits (LiveAgent::waiting), and an
  // Error of no run while it is booting (LiveAgent::boot_error).
  void saw(const v1::Envelope& env);

  LiveAgent* find(const std::string& agent_id);
  // The agent running `run_id`; nullptr when none.
  LiveAgent* running(const std::string& run_id, std::string* agent_id = nullptr);
  const std::map<std::string, LiveAgent>& all() const { return agents_; }

 private:
  std::map<std::string, LiveAgent> agents_;
};

}  // namespace schedrig::control
