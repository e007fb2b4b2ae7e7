// What owners (lab, the control plane) can do with a live agent connection
// (docs/architecture.md "Server"). An AgentSession is one; owners get it
// from CollectorEvents::on_hello and may keep it past its end (calls on a
// closed channel do nothing).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::collector {

class AgentChannel {
 public:
  virtual ~AgentChannel() = default;
  // Queues a host->agent envelope (protocol_version, agent_id and
  // sent_at_ns are stamped here). Thread-safe.
  virtual void send(schedrig::v1::Envelope env) = 0;
  // Sends a normal close (1000) after every queued envelope. Thread-safe.
  virtual void close() = 0;
  // "127.0.0.1:5555" (the TCP peer).
  virtual const std::string& peer() const = 0;
  // The id its token speaks for: every envelope it stores carries it.
  virtual const std::string& agent_id() const = 0;
  // The instance_id of its accepted Hello; "" before. Set once, before on_hello.
  virtual const std::string& instance_id() const = 0;
  // Envelopes the agent's spool held unacknowledged as it opened this
  // connection (its X-Schedrig-Spool-Backlog header, common/wire_names.h);
  // nullopt when it sent none or a bad one.
  virtual std::optional<std::uint64_t> spool_backlog() const { return std::nullopt; }
};

}  // namespace schedrig::collector
