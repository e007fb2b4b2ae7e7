// Reading runs back out of the tables (internal to schedrig_store).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "host/store/records.h"
#include "host/store/sqlite.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::store {

// A stored JSON object of strings (labels, knobs) as a map; `what` names it
// in the error. Throws StoreError kBadContent when it is not one.
std::map<std::string, std::string> string_map(const sqlite::Db& db, const std::string& text,
                                              const std::string& what);

// A stored schedrig.v1.Plan. Throws StoreError kBadContent naming run
// `run_id` when the bytes do not decode.
schedrig::v1::Plan decode_plan(const sqlite::Db& db, const std::string& bytes,
                               const std::string& run_id);

// A stored schedrig.v1.Plan as plan_to_json gives it. Throws StoreError
// kBadContent naming run `run_id` when the bytes do not decode.
nlohmann::json plan_json(const sqlite::Db& db, const std::string& bytes, const std::string& run_id);

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
