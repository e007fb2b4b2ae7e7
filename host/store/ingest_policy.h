// What an ingest checks beyond ids and instance ownership (host/store/store.h).
#pragma once

namespace schedrig::store {

struct IngestPolicy {
  // A run envelope (RunStarted, IterationResult, Sample, RunFinished, Error
  // with a run_id) is refused unless table `queue` assigns its run_id to the
  // envelope's agent_id. `serve` sets it for agents; `lab` and `import` do not.
  bool require_assigned_run = false;
};

}  // namespace schedrig::store
