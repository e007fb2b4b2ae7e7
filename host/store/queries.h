// Reading runs back out of the tables (internal to schedrig_store).
#pragma once

#include <string>
#include <vector>

#include "host/store/records.h"
#include "host/store/sqlite.h"

namespace schedrig::store {

// Runs whose run_id starts with `prefix` ("" = all), oldest first, with their
// iterations (position order), metrics (as sent) and, as `options` says,
// sample summaries. The caller holds a read transaction so the result is
// one snapshot. Throws StoreError.
std::vector<RunRecord> load_runs(sqlite::Db& db, const std::string& prefix,
                                 RunsOptions options = {});

// The run_ids that start with `prefix` ("" = all), oldest first (as
// load_runs orders them), without loading the runs. Throws StoreError.
std::vector<std::string> load_run_ids(sqlite::Db& db, const std::string& prefix);

// Run `run_id` (exact): its status and planned count (empty/0 when not
// stored), its iterations with id > after_iteration_id and its samples with
// id > after_sample_id. The caller holds a read transaction. Throws StoreError.
RunProgress load_progress(sqlite::Db& db, const std::string& run_id, long long after_sample_id,
                          long long after_iteration_id);

}  // namespace schedrig::store
