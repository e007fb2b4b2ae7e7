// The envelopes an agent introduces itself with, on the link and in
// offline files alike: Hello (host facts, knob capabilities) and Topology.
#pragma once

#include "agent/knobs/knob_controller.h"
#include "agent/topology/topology.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::agent {

// Hello: hostname, kernel release, agent version, allowed PUs, every
// knob's capability probed through `knob_control`, and each /proc source
// the sampler reads. No token: that travels on the upgrade (Authorization).
schedrig::v1::Envelope make_hello(const topology::Topology& topo,
                                  const knobs::KnobController& knob_control);

// Topology, in full.
schedrig::v1::Envelope make_topology(const topology::Topology& topo);

}  // namespace schedrig::agent
