// Reading runs back out of the tables (internal to schedrig_store).
#pragma once

#include <string>
#include <vector>

#include "host/store/records.h"
#include "host/store/sqlite.h"

namespace schedrig::store {

// Runs whose run_id starts with `prefix` ("" = all), oldest first, with their
// iterations (position order) and metrics (as sent). The caller holds a read
// transaction so the result is one snapshot. Throws StoreError.
std::vector<RunRecord> load_runs(sqlite::Db& db, const std::string& prefix);

}  // namespace schedrig::store
