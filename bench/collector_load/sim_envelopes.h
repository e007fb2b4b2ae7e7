// The small synthetic envelopes a simulated agent sends (bodies only; the
// link stamps identity and seq): a one-case plan, a Hello and a 2-PU
// Topology, RunStarted, and a load mix of Samples and IterationResults
// shaped like bench/store_ingest's.
#pragma once

#include <cstdint>
#include <string>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::bench {

// One case ("fork-all", workload fork), one variant ("baseline"), 1 iteration.
schedrig::v1::Plan sim_plan();
schedrig::v1::Envelope sim_hello(const std::string& agent_id);
schedrig::v1::Envelope sim_topology();
schedrig::v1::Envelope sim_run_started(const std::string& run_id);
// RunFinished, STATUS_OK, 1 iteration.
schedrig::v1::Envelope sim_run_finished(const std::string& run_id);
// The n-th (from 0) Sample of `run_id`.
schedrig::v1::Envelope sim_sample(const std::string& run_id, std::uint64_t n);
// The n-th load envelope: every fourth an IterationResult with two metrics
// (iteration n, so none repeats), the rest Samples.
schedrig::v1::Envelope sim_load_envelope(const std::string& run_id, std::uint64_t n);

}  // namespace schedrig::bench
