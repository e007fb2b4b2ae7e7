// What the collector tells its owner (serve logs; lab drives a run; the
// control plane dispatches). Called on a session's strand, each after the
// store committed what it reports: implementations must be thread-safe and
// quick, and must not block.
#pragma once

#include <memory>
#include <string>

#include "host/collector/agent_channel.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::collector {

class CollectorEvents {
 public:
  virtual ~CollectorEvents() = default;
  // An agent's Hello was accepted (its id checked, no other live instance
  // holds the id) and is in the store (stored now, or before: a replay);
  // `channel` can send it commands. Once per channel. Owners that need its
  // Topology take it from on_stored.
  virtual void on_hello(const std::shared_ptr<AgentChannel>& channel,
                        const schedrig::v1::Envelope& env) {
    (void)channel;
    (void)env;
  }
  // An agent->host envelope was stored for the first time (not a repeat).
  virtual void on_stored(const schedrig::v1::Envelope& env) { (void)env; }
  // A session ended, after the on_stored of everything it stored. Called
  // for every session once; `agent_id` is "" when its Hello was never
  // accepted (then on_hello never came for it); `reason` is one line. A
  // newer session of the same agent may already be live: compare channels.
  virtual void on_closed(const AgentChannel& channel, const std::string& agent_id,
                         const std::string& reason) {
    (void)channel;
    (void)agent_id;
    (void)reason;
  }
};

}  // namespace schedrig::collector
