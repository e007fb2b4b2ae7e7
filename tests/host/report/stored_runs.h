// The sample envelope streams of tests/host/store, ingested into an in-memory
// store and read back: the records the report functions see in real use.
#pragma once

#include <vector>

#include "common/envelope_codec.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"

namespace schedrig::testing {

inline std::vector<store::RunRecord> stored_runs() {
  store::Store db(":memory:");
  for (const auto& env : sample_run()) db.ingest(env, encode_envelope(env));
  return db.runs();
}

// sampled_run() stored and read back: the run, and its samples.
inline std::vector<store::RunRecord> stored_sampled_runs() {
  store::Store db(":memory:");
  for (const auto& env : sampled_run()) db.ingest(env, encode_envelope(env));
  return db.runs();
}

inline std::vector<store::SampleRecord> stored_samples() {
  store::Store db(":memory:");
  for (const auto& env : sampled_run()) db.ingest(env, encode_envelope(env));
  return db.samples(kRun);
}

}  // namespace schedrig::testing
