// Collector events to several owners in turn (docs/architecture.md "Control
// plane"): `lab` hands its server one of these so both Control and the lab's
// own observer see every event.
#pragma once

#include <vector>

#include "host/collector/events.h"

namespace schedrig::control {

class FanOutEvents : public collector::CollectorEvents {
 public:
  // Calls each of `owners` in this order; they must outlive this object.
  explicit FanOutEvents(std::vector<collector::CollectorEvents*> owners)
      : owners_(std::move(owners)) {}

  void on_hello(const std::shared_ptr<collector::AgentChannel>& channel,
                const v1::Envelope& env) override {
    for (auto* o : owners_) o->on_hello(channel, env);
  }
  void on_stored(const v1::Envelope& env) override {
    for (auto* o : owners_) o->on_stored(env);
  }
  void on_closed(const collector::AgentChannel& channel, const std::string& agent_id,
                 const std::string& reason) override {
    for (auto* o : owners_) o->on_closed(channel, agent_id, reason);
  }

 private:
  std::vector<collector::CollectorEvents*> owners_;
};

}  // namespace schedrig::control
