// What an ingest checks beyond ids and instance ownership (host/store/store.h).
#pragma once

namespace schedrig::store {

struct IngestPolicy {
  // A run envelope (RunStarted, IterationResult, Sample, RunFinished, Error
  // or Log with a run_id) is refused unless table `queue` has its run_id
  // dispatched (in any state but "queued") to the envelope's agent_id, or it is an exact
  // duplicate of a stored envelope. `serve` sets it for agents; `lab` and
  // `import` (no queue rows) do not.
  bool require_assigned_run = false;
};

}  // namespace schedrig::store
