// Synthetic runs ingested into one temporary store and read back, for the
// compare model tests.
#pragma once

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/host/compare/synthetic_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::testing {

class StoredRuns : public ::testing::Test {
 protected:
  // Ingests `s` and returns it as Store::runs reads it.
  store::RunRecord stored(const SyntheticRun& s) {
    store::Store db(dir_.file("schedrig.db"));
    ingest(db, synthetic_run(s));
    auto runs = db.runs(s.run_id);
    EXPECT_EQ(runs.size(), 1u);
    return runs.front();
  }
  TempDir dir_;
};

// Run ids and instance ids 1..9 for runs of one store: "r1000000-...".
inline std::string run_id(unsigned n) {
  return fmt::format("{}{}000000-1111-4111-8111-00000000000{}", "r", n, n);
}
inline std::string instance_id(unsigned n) {
  return fmt::format("0b5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a{:02}", n);
}

}  // namespace schedrig::testing
