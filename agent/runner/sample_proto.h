// The sampler's values as wire messages (proto/schedrig/v1/sample.proto).
#pragma once

#include "agent/sampler/sample.h"
#include "schedrig/v1/sample.pb.h"

namespace schedrig::runner {

// Every field of `s` into a Sample; optional values stay unset when absent.
// The iteration's identity and ops_so_far are the caller's to fill.
schedrig::v1::Sample to_proto(const sampler::DerivedSample& s);

schedrig::v1::SampleSummary to_proto(const sampler::SampleSummary& s);

}  // namespace schedrig::runner
