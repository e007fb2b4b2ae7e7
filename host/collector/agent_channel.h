// TEMPORARY STUB (P5 control) until P3 lands: the spec's AgentChannel.
#pragma once

#include <string>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::collector {

class AgentChannel {
 public:
  virtual ~AgentChannel() = default;
  virtual void send(schedrig::v1::Envelope env) = 0;
  virtual void close() = 0;
  virtual const std::string& peer() const = 0;
  virtual const std::string& agent_id() const = 0;
  virtual const std::string& instance_id() const = 0;
};

}  // namespace schedrig::collector
