// A queued run and envelope helpers for the queue, ownership and batch tests.
#pragma once

#include <string>
#include <vector>

#include "common/envelope_codec.h"
#include "host/store/records.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"

namespace schedrig::testing {

// Run `run_id` of fork-vs-features for `agent`, as `serve` queues it.
inline store::QueuedRun queued_run(const std::string& run_id, const std::string& agent,
                                   long long submitted_at_ns = kT0) {
  store::QueuedRun q;
  q.run_id = run_id;
  q.agent_id = agent;
  q.plan_name = "fork-vs-features.yaml";
  q.plan = make_plan("fork-vs-features");
  q.labels = {{"tag", "nightly"}};
  q.submitted_by = "alice";
  q.submitted_at_ns = submitted_at_ns;
  return q;
}

// sample_run(run_id, first_seq, instance) as sent by `agent`.
inline std::vector<v1::Envelope> run_of_agent(const std::string& agent, const std::string& run_id,
                                              unsigned long long first_seq,
                                              const std::string& instance) {
  std::vector<v1::Envelope> out = sample_run(run_id, first_seq, instance);
  for (v1::Envelope& env : out) env.set_agent_id(agent);
  return out;
}

// Stores every envelope with store.ingest (throws on the first refusal).
inline void ingest_each(store::Store& store, const std::vector<v1::Envelope>& envs,
                        store::IngestPolicy policy = {}) {
  for (const v1::Envelope& env : envs) store.ingest(env, encode_envelope(env), policy);
}

}  // namespace schedrig::testing
