// Who may write what (internal to schedrig_store; docs/architecture.md
// "Results model"): an agent instance belongs to the agent that first sent
// an envelope for it, and a queued run to the agent it was queued for. The
// caller holds the write transaction.
#pragma once

#include <string>

#include "host/store/sqlite.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::store {

// Records env.instance_id as env.agent_id's (a bare `instances` row when it
// has none yet; Hello and Topology fill it in). Throws StoreError kNotOwner,
// changing nothing, when the instance is recorded for another agent.
void claim_instance(sqlite::Db& db, const schedrig::v1::Envelope& env);

// Throws StoreError kNotOwner when `env` is a run envelope whose run_id is
// not in table `queue` for env.agent_id. Writes nothing.
void require_assigned_run(sqlite::Db& db, const schedrig::v1::Envelope& env);

}  // namespace schedrig::store
