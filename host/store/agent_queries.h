// Reading agents back out of the tables (internal to schedrig_store).
#pragma once

#include <vector>

#include "host/store/records.h"
#include "host/store/sqlite.h"

namespace schedrig::store {

// Every agent, by agent_id, with its latest instance (the last inserted)
// and that instance's topology counts. Throws StoreError.
std::vector<AgentRecord> load_agents(sqlite::Db& db);

}  // namespace schedrig::store
