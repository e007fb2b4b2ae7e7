// Reading samples back out of the samples table (internal to schedrig_store).
#pragma once

#include <string>
#include <vector>

#include "host/store/records.h"
#include "host/store/sqlite.h"
#include "schedrig/v1/sample.pb.h"

namespace schedrig::store {

// The Sample's values, present ones only, in SampleRecord::values order.
std::vector<std::pair<std::string, double>> sample_values(const v1::Sample& s);

// Samples with id > `after_id`, in id order, of the run `run_id` (when
// `exact`) or of every run whose id starts with it ("" = all). Uses the
// (run_id, id) index either way. The caller holds a read transaction.
// Throws StoreError when a stored body does not decode as schedrig.v1.Sample.
std::vector<SampleRecord> load_samples(sqlite::Db& db, const std::string& run_id,
                                       long long after_id, bool exact);

}  // namespace schedrig::store
