// What the collector tells its owner (serve logs; lab drives a run).
// Called on a session's strand: implementations must be thread-safe and quick.
#pragma once

#include <memory>
#include <string>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::collector {

class AgentChannel;

class CollectorEvents {
 public:
  virtual ~CollectorEvents() = default;
  // An agent said Hello (already stored); `session` can send it commands.
  virtual void on_hello(const std::shared_ptr<AgentChannel>& session,
                        const schedrig::v1::Envelope& env) {
    (void)session;
    (void)env;
  }
  // An agent->host envelope was stored for the first time (not a repeat).
  virtual void on_stored(const schedrig::v1::Envelope& env) { (void)env; }
  // A connection ended; `agent_id` is "" when it never said who it was;
  // `reason` is one line.
  virtual void on_closed(const AgentChannel& session, const std::string& agent_id,
                         const std::string& reason) {
    (void)session;
    (void)agent_id;
    (void)reason;
  }
};

}  // namespace schedrig::collector
