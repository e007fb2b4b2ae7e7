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
  // The sender is a replay session (`/agent?replay=1`: an agent replaying an
  // older instance from its spool, docs/architecture.md "Spool"). Its Hello
  // must be stored already, exactly (the instance was seen live), and with
  // require_assigned_run a run envelope must be for a run dispatched to
  // that very instance, or one that is interrupted or ended: a replay never
  // writes into a run another instance is running.
  bool replay_session = false;
};

}  // namespace schedrig::store
