// How the spool treats each body (docs/architecture.md "Spool"): a Sample is
// the only body dropped when the spool is full; Samples and Logs are synced
// in batches; every other body (Hello, Topology, RunStarted,
// IterationResult, RunFinished, Error) is synced before append returns.
#pragma once

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::spool {

// True for a Sample: dropped first when the spool is full.
bool droppable(const schedrig::v1::Envelope& env);

// True when the envelope must be on disk before append returns.
bool durable(const schedrig::v1::Envelope& env);

}  // namespace schedrig::spool
