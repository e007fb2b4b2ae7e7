// The nights serve was told of (POST /api/v1/nightly; docs/nightly.md
// "Serve keeps the verdicts"): schema 6's `nights` and `nightly_verdicts`.
#pragma once

#include <string>
#include <vector>

#include "host/store/records.h"

namespace schedrig::store {

namespace sqlite {
class Db;
}

// Stores `night` (replacing a night of the same name) and, per agent and
// plan it has rows for, replaces that agent and plan's rows with its own.
void save_night(sqlite::Db& db, const NightRecord& night);

// Every stored verdict row (each agent and plan's latest night), by agent,
// plan, case, variant, metric, kernel.
std::vector<NightlyVerdictRecord> load_nightly_verdicts(sqlite::Db& db);

// How many stored nights had a selftest miss its regression.
unsigned count_detector_failed_nights(sqlite::Db& db);

}  // namespace schedrig::store
