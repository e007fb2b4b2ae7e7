// Ownership checks of Store::ingest: an instance stays the agent's that
// first wrote it, and (IngestPolicy::require_assigned_run) a run's
// envelopes come only from the agent the run is queued for. A refusal
// stores nothing.
#include <tuple>
#include <utility>

#include <gtest/gtest.h>

#include "host/store/store.h"
#include "tests/host/store/queued_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::store {
namespace {

using schedrig::testing::ingest_each;
using schedrig::testing::kAgent;
using schedrig::testing::kInstance;
using schedrig::testing::kRun;
using schedrig::testing::queued_run;
using schedrig::testing::RawDb;
using schedrig::testing::run_of_agent;
using schedrig::testing::TempDir;

constexpr const char* kOther = "intruder-01";
constexpr const char* kOtherInstance = "99999999-1c2d-4e3f-8a9b-0c1d2e3f4a5b";

// Every table an ingest can write, counted.
struct Counts {
  long long envelopes, agents, instances, runs, iterations, samples;
  bool operator==(const Counts&) const = default;
};
Counts counts(const std::string& path) {
  RawDb raw(path);
  return {raw.count("envelopes"), raw.count("agents"),     raw.count("instances"),
          raw.count("runs"),      raw.count("iterations"), raw.count("samples")};
}

StoreError::Reason refusal(Store& store, const v1::Envelope& env, IngestPolicy policy = {}) {
  try {
    store.ingest(env, encode_envelope(env), policy);
  } catch (const StoreError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage) << e.what();
    return e.reason();
  }
  ADD_FAILURE() << "ingest did not throw";
  return StoreError::Reason::kSql;
}

TEST(StoreOwnership, AnotherAgentsInstanceIsRefusedAndNothingRewritten) {
  TempDir tmp;
  const std::string path = tmp.file("own.db");
  Store store(path);
  std::vector<v1::Envelope> run = run_of_agent(kAgent, kRun, 1, kInstance);
  ingest_each(store, run);
  const Counts before = counts(path);

  // Another agent says Hello (and sends a result) under the first one's instance.
  v1::Envelope hello = run[0];
  hello.set_agent_id(kOther);
  hello.set_seq(100);
  hello.mutable_hello()->set_hostname("evil.lab");
  EXPECT_EQ(refusal(store, hello), StoreError::Reason::kNotOwner);
  v1::Envelope result = run[3];
  result.set_agent_id(kOther);
  result.set_seq(101);
  EXPECT_EQ(refusal(store, result), StoreError::Reason::kNotOwner);

  EXPECT_EQ(counts(path), before);
  RawDb raw(path);
  EXPECT_EQ(raw.scalar("SELECT agent_id || ' ' || hostname FROM instances WHERE instance_id = '" +
                       std::string(kInstance) + "'"),
            std::string(kAgent) + " altra-01.lab");
  EXPECT_EQ(store.agents().size(), 1u);
  EXPECT_EQ(store.runs().at(0).hostname, "altra-01.lab");
}

TEST(StoreOwnership, FirstEnvelopeOfAnInstanceClaimsIt) {
  TempDir tmp;
  const std::string path = tmp.file("own.db");
  Store store(path);
  // A Sample before any Hello (an import of a partial file) records the owner too.
  v1::Envelope sample = testing::make_sample(1, kRun, 0, 0);
  store.ingest(sample, encode_envelope(sample));
  v1::Envelope stolen = testing::make_sample(2, kRun, 0, 1);
  stolen.set_agent_id(kOther);
  EXPECT_EQ(refusal(store, stolen), StoreError::Reason::kNotOwner);
  EXPECT_EQ(RawDb(path).count("samples"), 1);
  // Its own Hello later fills the row in.
  ingest_each(store, {run_of_agent(kAgent, kRun, 10, kInstance)[0]});
  EXPECT_EQ(RawDb(path).scalar("SELECT hostname FROM instances"), "altra-01.lab");
}

TEST(StoreOwnership, RunEnvelopesNeedARunQueuedForTheirAgent) {
  TempDir tmp;
  const std::string path = tmp.file("own.db");
  Store store(path);
  const IngestPolicy assigned{true};
  std::vector<v1::Envelope> mine = run_of_agent(kAgent, kRun, 1, kInstance);
  std::vector<v1::Envelope> theirs = run_of_agent(kOther, kRun, 1, kOtherInstance);
  store.enqueue_run(queued_run(kRun, kAgent));
  store.mark_run_dispatched(kRun);
  // Hello and Topology carry no run: stored for both agents.
  ingest_each(store, {mine[0], mine[1], theirs[0], theirs[1]}, assigned);
  const Counts before = counts(path);

  // The other agent's RunStarted, IterationResult, RunFinished, Sample and
  // Error of the run queued for kAgent are all refused.
  v1::Envelope sample = testing::make_sample(20, kRun, 0, 0, false);
  sample.set_agent_id(kOther);
  sample.set_instance_id(kOtherInstance);
  v1::Envelope error = theirs[2];
  error.mutable_error()->set_run_id(kRun);
  error.mutable_error()->set_message("boom");
  for (const v1::Envelope& env : {theirs[2], theirs[3], theirs[6], sample, error}) {
    SCOPED_TRACE(body_name(env));
    EXPECT_EQ(refusal(store, env, assigned), StoreError::Reason::kNotOwner);
  }
  EXPECT_EQ(counts(path), before);
  EXPECT_EQ(store.queued_run(kRun)->state, "running");

  // A run nobody queued is refused for its own agent too, as a run the
  // store does not know (a stale spool: refused alone, not a breach); an
  // Error without a run_id is not a run envelope.
  v1::Envelope unqueued =
      run_of_agent(kAgent, "c0000000-0000-4000-8000-000000000009", 50, kInstance)[2];
  EXPECT_EQ(refusal(store, unqueued, assigned), StoreError::Reason::kUnknownRun);
  v1::Envelope plain_error = mine[2];
  plain_error.set_seq(60);
  plain_error.mutable_error()->set_message("cannot read /proc/schedstat");
  EXPECT_EQ(store.ingest(plain_error, encode_envelope(plain_error), assigned),
            Store::Ingest::kStored);

  // The agent it is queued for stores the whole run; without the policy
  // (lab, import) an unqueued run is stored as before.
  ingest_each(store, std::vector<v1::Envelope>(mine.begin() + 2, mine.end()), assigned);
  EXPECT_EQ(store.runs(kRun).at(0).iterations.size(), 3u);
  EXPECT_EQ(store.queued_run(kRun)->state, "ok");
  EXPECT_EQ(store.ingest(unqueued, encode_envelope(unqueued)), Store::Ingest::kStored);
}

// What the sender is told: its own envelope and run, never the store's
// path or another agent's id (those are for the host's log).
std::pair<std::string, std::string> refusal_texts(Store& store, const v1::Envelope& env) {
  try {
    store.ingest(env, encode_envelope(env), IngestPolicy{true});
  } catch (const StoreError& e) {
    EXPECT_EQ(e.reason(), StoreError::Reason::kNotOwner) << e.what();
    return {e.what(), e.peer_message()};
  }
  ADD_FAILURE() << "ingest did not throw";
  return {};
}

TEST(StoreOwnership, RefusalsTellThePeerOnlyWhatItDid) {
  TempDir tmp;
  const std::string path = tmp.file("own.db");
  Store store(path);
  std::vector<v1::Envelope> mine = run_of_agent(kAgent, kRun, 1, kInstance);
  std::vector<v1::Envelope> theirs = run_of_agent(kOther, kRun, 1, kOtherInstance);
  store.enqueue_run(queued_run(kRun, kAgent));
  store.mark_run_dispatched(kRun);
  ingest_each(store, {mine[0], theirs[0]}, IngestPolicy{true});

  auto [log, peer] = refusal_texts(store, theirs[3]);
  EXPECT_NE(log.find(path), std::string::npos) << log;
  EXPECT_NE(log.find("queued for agent 'altra-01'"), std::string::npos) << log;
  EXPECT_EQ(peer, "iteration_result (seq 4) for run " + std::string(kRun) +
                      ", which is not this agent's: refused");

  v1::Envelope hello = mine[0];  // kOther under kAgent's instance
  hello.set_agent_id(kOther);
  hello.set_seq(100);
  std::tie(log, peer) = refusal_texts(store, hello);
  EXPECT_NE(log.find("of agent 'altra-01'"), std::string::npos) << log;
  EXPECT_EQ(peer, "hello (seq 100): instance " + std::string(kInstance) +
                      " is not this agent's: refused");
  EXPECT_EQ(peer.find(path), std::string::npos);
}

// A run of this agent that is not dispatched (queued behind another) or has
// ended (aborted before it started, finished) takes no envelope: no runs
// row, no queue change, nothing stored; an exact replay of a stored one is a
// duplicate (acked again), a new seq or other bytes are refused.
TEST(StoreOwnership, OnlyADispatchedRunTakesEnvelopes) {
  TempDir tmp;
  const std::string path = tmp.file("own.db");
  Store store(path);
  const IngestPolicy assigned{true};
  const std::string later = "c0000000-0000-4000-8000-00000000000a";
  const std::string aborted = "c0000000-0000-4000-8000-00000000000b";
  std::vector<v1::Envelope> mine = run_of_agent(kAgent, kRun, 1, kInstance);
  store.enqueue_run(queued_run(kRun, kAgent));
  store.enqueue_run(queued_run(later, kAgent));
  store.enqueue_run(queued_run(aborted, kAgent));
  store.mark_run_dispatched(kRun);
  store.finish_queued_run(aborted, "aborted", "aborted by alice before it started");
  ingest_each(store, {mine[0], mine[1]}, assigned);
  const Counts before = counts(path);

  // The whole forged stream (RunStarted .. RunFinished ok) of the run still
  // queued, then of the aborted one.
  for (const std::string& run : {later, aborted}) {
    for (const v1::Envelope& env : run_of_agent(kAgent, run, 20, kInstance)) {
      if (!run_id_of(env)) continue;
      SCOPED_TRACE(run + " " + body_name(env));
      auto [log, peer] = refusal_texts(store, env);
      EXPECT_NE(peer.find(run == later ? "is not dispatched to this agent yet"
                                       : "was aborted before it was dispatched"),
                std::string::npos)
          << peer;
    }
  }
  EXPECT_EQ(counts(path), before);
  EXPECT_EQ(store.queued_run(later)->state, "queued");
  EXPECT_EQ(store.queued_run(aborted)->state, "aborted");
  EXPECT_TRUE(store.runs(later).empty());
  EXPECT_TRUE(store.runs(aborted).empty());

  // The dispatched run is stored whole; then it is over. (Bytes are encoded
  // once, as the agent's spool keeps them: a map's order may differ per copy.)
  std::vector<std::string> bytes;
  for (const v1::Envelope& env : mine) bytes.push_back(encode_envelope(env));
  for (std::size_t i = 2; i < mine.size(); ++i) store.ingest(mine[i], bytes[i], assigned);
  EXPECT_EQ(store.queued_run(kRun)->state, "ok");
  for (std::size_t i = 0; i < mine.size(); ++i) {  // a replay of every stored envelope
    EXPECT_EQ(store.ingest(mine[i], bytes[i], assigned), Store::Ingest::kDuplicate) << i;
  }
  // A late envelope of the ended run (a replay of what the agent spooled):
  // stored and acked, the verdict stays.
  v1::Envelope again = mine.back();
  again.set_seq(40);
  again.mutable_run_finished()->set_status(v1::STATUS_FAILED);
  EXPECT_EQ(store.ingest(again, encode_envelope(again), assigned), Store::Ingest::kStored);
  EXPECT_EQ(store.queued_run(kRun)->state, "ok");
  v1::Envelope altered = mine[3];  // a stored seq with other bytes: the first copy stays
  altered.mutable_iteration_result()->set_reason("forged");
  EXPECT_EQ(store.ingest(altered, encode_envelope(altered), assigned), Store::Ingest::kDuplicate);
  EXPECT_NE(store.runs(kRun).at(0).iterations.at(0).reason, "forged");
  EXPECT_EQ(store.runs(kRun).at(0).status, "ok");

  // Without the policy (lab, import) nothing of this applies.
  v1::Envelope lab = run_of_agent(kAgent, later, 60, kInstance)[2];
  EXPECT_EQ(store.ingest(lab, encode_envelope(lab)), Store::Ingest::kStored);
}

// In one batch: what follows the run's RunFinished (a late replay) is
// stored too, and the run's verdict stays.
TEST(StoreOwnership, ABatchStoresWhatFollowsTheRunFinishedAndKeepsTheVerdict) {
  TempDir tmp;
  Store store(tmp.file("own.db"));
  std::vector<v1::Envelope> mine = run_of_agent(kAgent, kRun, 1, kInstance);
  store.enqueue_run(queued_run(kRun, kAgent));
  store.mark_run_dispatched(kRun);
  v1::Envelope after = mine[3];
  after.set_seq(50);
  after.mutable_iteration_result()->set_iteration(7);
  mine.push_back(after);
  std::vector<std::string> raw;
  for (const v1::Envelope& env : mine) raw.push_back(encode_envelope(env));
  std::vector<IngestItem> items;
  for (std::size_t i = 0; i < mine.size(); ++i) items.push_back({&mine[i], raw[i]});
  const std::vector<IngestOutcome> out = store.ingest_batch(items, IngestPolicy{true});
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_FALSE(out[i].error) << i;
  EXPECT_EQ(store.runs(kRun).at(0).iterations.size(), 4u);
  EXPECT_EQ(store.runs(kRun).at(0).status, "ok");
  EXPECT_EQ(store.queued_run(kRun)->state, "ok");
}

TEST(StoreOwnership, RunFinishedOfAnotherAgentLeavesTheRunAlone) {
  TempDir tmp;
  Store store(tmp.file("own.db"));
  std::vector<v1::Envelope> mine = run_of_agent(kAgent, kRun, 1, kInstance);
  mine.pop_back();
  ingest_each(store, mine);
  std::vector<v1::Envelope> theirs = run_of_agent(kOther, kRun, 1, kOtherInstance);
  theirs.back().mutable_run_finished()->set_status(v1::STATUS_ABORTED);
  ingest_each(store, {theirs[0], theirs.back()});  // no policy: stored, derives nothing
  EXPECT_EQ(store.runs(kRun).at(0).status, "running");
}

}  // namespace
}  // namespace schedrig::store
