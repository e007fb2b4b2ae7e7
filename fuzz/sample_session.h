// A small, valid agent session for seeds and fixtures: what one agent sends
// for a one-iteration run (docs/architecture.md "Wire protocol"): Hello,
// Topology (4 PUs, one node), RunStarted, a Sample, an IterationResult and
// RunFinished (ok), seqs 1..6 of one instance.
#pragma once

#include <string>
#include <vector>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::fuzz {

inline constexpr const char* kSampleAgent = "lab-1";
inline constexpr const char* kSampleInstance = "5b1f2c3d-0000-4000-8000-000000000001";
inline constexpr const char* kSampleRun = "11111111-2222-4333-8444-555555555555";

// The envelopes above, in seq order, for `agent_id`, `instance_id` and `run_id`.
std::vector<schedrig::v1::Envelope> sample_session(const std::string& agent_id = kSampleAgent,
                                                   const std::string& instance_id = kSampleInstance,
                                                   const std::string& run_id = kSampleRun);

}  // namespace schedrig::fuzz
