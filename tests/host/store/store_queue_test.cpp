// The queue (schema step 3): FIFO per agent, state transitions by the
// queue calls and by the run's own RunStarted/RunFinished, and queued runs
// read back as results.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "host/store/store.h"
#include "tests/host/store/queued_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::store {
namespace {

using schedrig::testing::ingest_each;
using schedrig::testing::kInstance;
using schedrig::testing::kT0;
using schedrig::testing::queued_run;
using schedrig::testing::run_of_agent;
using schedrig::testing::TempDir;

constexpr const char* kRunA1 = "a1000000-0000-4000-8000-000000000001";
constexpr const char* kRunA2 = "a2000000-0000-4000-8000-000000000002";
constexpr const char* kRunB1 = "b1000000-0000-4000-8000-000000000003";

std::vector<std::string> ids_of(const std::vector<QueuedRun>& rows) {
  std::vector<std::string> out;
  for (const QueuedRun& q : rows) out.push_back(q.run_id);
  return out;
}

TEST(StoreQueue, EnqueuedRunReadsBackWhole) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  QueuedRun in = queued_run(kRunA1, "box-a", kT0 + 5);
  in.state = "ok";  // ignored: a new row is always queued
  in.dispatched_at_ns = 99;
  store.enqueue_run(in);

  const std::optional<QueuedRun> q = store.queued_run(kRunA1);
  ASSERT_TRUE(q.has_value());
  EXPECT_GT(q->id, 0);
  EXPECT_EQ(q->run_id, kRunA1);
  EXPECT_EQ(q->agent_id, "box-a");
  EXPECT_EQ(q->plan_name, "fork-vs-features.yaml");
  EXPECT_EQ(q->plan.name(), "fork-vs-features");
  EXPECT_EQ(q->plan.cases(0).params().at("fork_max"), "1");
  EXPECT_EQ(q->labels, (std::map<std::string, std::string>{{"tag", "nightly"}}));
  EXPECT_EQ(q->state, "queued");
  EXPECT_EQ(q->reason, "");
  EXPECT_EQ(q->submitted_by, "alice");
  EXPECT_EQ(q->submitted_at_ns, kT0 + 5);
  EXPECT_EQ(q->dispatched_at_ns, 0);
  EXPECT_EQ(q->finished_at_ns, 0);
  EXPECT_FALSE(store.queued_run("a1000000").has_value());  // exact ids only
}

TEST(StoreQueue, FifoPerAgent) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  store.enqueue_run(queued_run(kRunA1, "box-a"));
  store.enqueue_run(queued_run(kRunB1, "box-b"));
  store.enqueue_run(queued_run(kRunA2, "box-a"));

  EXPECT_EQ(store.next_queued_run("box-a")->run_id, kRunA1);
  EXPECT_EQ(store.next_queued_run("box-b")->run_id, kRunB1);
  EXPECT_FALSE(store.next_queued_run("box-c").has_value());
  EXPECT_EQ(ids_of(store.queued_runs()), (std::vector<std::string>{kRunA1, kRunB1, kRunA2}));

  store.mark_run_dispatched(kRunA1);
  EXPECT_EQ(store.next_queued_run("box-a")->run_id, kRunA2);
  EXPECT_EQ(ids_of(store.queued_runs("queued")), (std::vector<std::string>{kRunB1, kRunA2}));
  EXPECT_EQ(ids_of(store.queued_runs("running")), (std::vector<std::string>{kRunA1}));
  EXPECT_TRUE(store.queued_runs("ok").empty());
}

TEST(StoreQueue, DuplicateRunIdIsRefused) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  store.enqueue_run(queued_run(kRunA1, "box-a"));
  try {
    store.enqueue_run(queued_run(kRunA1, "box-b"));
    ADD_FAILURE() << "second enqueue of the same run_id did not throw";
  } catch (const StoreError& e) {
    EXPECT_EQ(e.reason(), StoreError::Reason::kBadContent);
    EXPECT_NE(std::string(e.what()).find(kRunA1), std::string::npos) << e.what();
  }
  EXPECT_EQ(store.queued_runs().size(), 1u);
  EXPECT_EQ(store.queued_run(kRunA1)->agent_id, "box-a");
  // A run already stored (started by `lab`) cannot be queued either.
  ingest_each(store, run_of_agent("box-a", kRunB1, 1, kInstance));
  EXPECT_THROW(store.enqueue_run(queued_run(kRunB1, "box-a")), StoreError);
  EXPECT_THROW(store.enqueue_run(queued_run("", "box-a")), StoreError);
  EXPECT_THROW(store.enqueue_run(queued_run(kRunA2, "")), StoreError);
}

TEST(StoreQueue, RunStartedAndRunFinishedMoveTheQueueRow) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  store.enqueue_run(queued_run(testing::kRun, testing::kAgent));
  std::vector<v1::Envelope> run = run_of_agent(testing::kAgent, testing::kRun, 1, kInstance);
  run.back().mutable_run_finished()->set_status(v1::STATUS_FAILED);
  run.back().mutable_run_finished()->set_reason("workload fork exited 1");
  const IngestPolicy assigned{true};

  // Hello, Topology, RunStarted of the dispatched run: the dispatch time
  // stays serve's.
  store.mark_run_dispatched(testing::kRun);
  const long long dispatched = store.queued_run(testing::kRun)->dispatched_at_ns;
  for (std::size_t i = 0; i < 3; ++i) store.ingest(run[i], encode_envelope(run[i]), assigned);
  std::optional<QueuedRun> q = store.queued_run(testing::kRun);
  EXPECT_EQ(q->state, "running");
  EXPECT_EQ(q->dispatched_at_ns, dispatched);
  EXPECT_FALSE(store.next_queued_run(testing::kAgent).has_value());

  for (std::size_t i = 3; i < run.size(); ++i) {
    store.ingest(run[i], encode_envelope(run[i]), assigned);
  }
  q = store.queued_run(testing::kRun);
  EXPECT_EQ(q->state, "failed");
  EXPECT_EQ(q->reason, "workload fork exited 1");
  EXPECT_EQ(q->finished_at_ns, run.back().sent_at_ns());
  EXPECT_EQ(store.runs(testing::kRun).at(0).status, "failed");
}

// RunFinished of the run as box `testing::kAgent` sends it, at `seq`.
v1::Envelope run_finished(v1::Status status, const std::string& reason, unsigned long long seq) {
  v1::Envelope env = run_of_agent(testing::kAgent, testing::kRun, 1, kInstance).back();
  env.set_seq(seq);
  env.mutable_run_finished()->set_status(status);
  env.mutable_run_finished()->set_reason(reason);
  return env;
}

TEST(StoreQueue, ATerminalStatusIsFinal) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  store.enqueue_run(queued_run(testing::kRun, testing::kAgent));
  std::vector<v1::Envelope> run = run_of_agent(testing::kAgent, testing::kRun, 1, kInstance);
  run.pop_back();  // no RunFinished yet
  const IngestPolicy assigned{true};
  store.mark_run_dispatched(testing::kRun);
  ingest_each(store, run, assigned);
  // The operator aborts while the agent is away; its RunFinished comes later
  // (after a reconnect, a replay): stored and acked, and the run stays aborted.
  store.finish_queued_run(testing::kRun, "aborted", "aborted by alice");
  const v1::Envelope late = run_finished(v1::STATUS_OK, "", 100);
  EXPECT_EQ(store.ingest(late, encode_envelope(late), assigned), Store::Ingest::kStored);
  const RunRecord r = store.runs(testing::kRun).at(0);
  EXPECT_EQ(r.status, "aborted");
  EXPECT_EQ(r.reason, "aborted by alice");
  EXPECT_EQ(store.queued_run(testing::kRun)->state, "aborted");
  EXPECT_EQ(store.queued_run(testing::kRun)->reason, "aborted by alice");
  // Nor does a later verdict of the host's change it.
  store.finish_queued_run(testing::kRun, "failed", "serve restarted");
  store.fail_unfinished_run(testing::kRun, "lab: agent died");
  EXPECT_EQ(store.queued_run(testing::kRun)->state, "aborted");
  EXPECT_EQ(store.runs(testing::kRun).at(0).status, "aborted");
}

TEST(StoreQueue, TheFirstRunFinishedDecides) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  store.enqueue_run(queued_run(testing::kRun, testing::kAgent));
  std::vector<v1::Envelope> run = run_of_agent(testing::kAgent, testing::kRun, 1, kInstance);
  run.back().mutable_run_finished()->set_status(v1::STATUS_ABORTED);
  run.back().mutable_run_finished()->set_reason("aborted by the host");
  const IngestPolicy assigned{true};
  store.mark_run_dispatched(testing::kRun);
  ingest_each(store, run, assigned);
  const long long finished_at = store.runs(testing::kRun).at(0).finished_at_ns;
  v1::Envelope again = run_finished(v1::STATUS_OK, "all done", 100);
  again.set_sent_at_ns(finished_at + 1000);
  EXPECT_EQ(store.ingest(again, encode_envelope(again), assigned), Store::Ingest::kStored);
  const RunRecord r = store.runs(testing::kRun).at(0);
  EXPECT_EQ(r.status, "aborted");
  EXPECT_EQ(r.reason, "aborted by the host");
  EXPECT_EQ(r.finished_at_ns, finished_at);
  const QueuedRun q = *store.queued_run(testing::kRun);
  EXPECT_EQ(q.state, "aborted");
  EXPECT_EQ(q.reason, "aborted by the host");
  EXPECT_EQ(q.finished_at_ns, finished_at);
}

TEST(StoreQueue, MarkDispatchedOnlyMovesAQueuedRow) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  store.enqueue_run(queued_run(kRunA1, "box-a"));
  store.mark_run_dispatched(kRunA1);
  const long long dispatched = store.queued_run(kRunA1)->dispatched_at_ns;
  EXPECT_GT(dispatched, kT0);
  store.finish_queued_run(kRunA1, "aborted", "aborted by alice");
  store.mark_run_dispatched(kRunA1);  // no-op now
  store.mark_run_dispatched("no-such-run");
  const QueuedRun q = *store.queued_run(kRunA1);
  EXPECT_EQ(q.state, "aborted");
  EXPECT_EQ(q.reason, "aborted by alice");
  EXPECT_EQ(q.dispatched_at_ns, dispatched);
  EXPECT_GE(q.finished_at_ns, dispatched);
  EXPECT_THROW(store.finish_queued_run(kRunA1, "running", ""), StoreError);
  EXPECT_EQ(store.queued_run(kRunA1)->state, "aborted");
}

// serve start: dispatched rows are disconnected (not failed), their runs
// rows stay running; queued rows stay queued.
TEST(StoreQueue, DisconnectDispatchedRunsLeavesThemDisconnected) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  store.enqueue_run(queued_run(testing::kRun, testing::kAgent));  // will be running, started
  store.enqueue_run(queued_run(kRunA1, "box-a"));                 // dispatched, not started
  store.enqueue_run(queued_run(kRunA2, "box-a"));                 // still queued
  std::vector<v1::Envelope> run = run_of_agent(testing::kAgent, testing::kRun, 1, kInstance);
  const v1::Envelope finished = run.back();
  run.pop_back();  // no RunFinished: serve died mid-run
  store.mark_run_dispatched(testing::kRun, kInstance);
  ingest_each(store, run, IngestPolicy{true});
  store.mark_run_dispatched(kRunA1);
  EXPECT_TRUE(store.mark_run_disconnected(kRunA1, "agent box-a disconnected: reset"));
  const long long gone_at = store.queued_run(kRunA1)->disconnected_at_ns;
  EXPECT_GT(gone_at, 0);

  EXPECT_EQ(store.disconnect_dispatched_runs("serve restarted"), 2);
  EXPECT_EQ(store.queued_run(testing::kRun)->state, "disconnected");
  EXPECT_EQ(store.queued_run(testing::kRun)->reason, "serve restarted");
  EXPECT_EQ(store.queued_run(testing::kRun)->instance_id, kInstance);
  EXPECT_EQ(store.queued_run(kRunA1)->state, "disconnected");
  EXPECT_EQ(store.queued_run(kRunA1)->disconnected_at_ns, gone_at);  // it went before
  EXPECT_EQ(store.queued_run(kRunA2)->state, "queued");
  const RunRecord stored = store.runs(testing::kRun).at(0);
  EXPECT_EQ(stored.status, "running");
  EXPECT_EQ(stored.iterations.size(), 3u);

  // Resumed, then interrupted, then the agent's RunFinished decides.
  EXPECT_TRUE(store.resume_run(testing::kRun));
  EXPECT_EQ(store.queued_run(testing::kRun)->state, "running");
  EXPECT_EQ(store.queued_run(testing::kRun)->disconnected_at_ns, 0);
  EXPECT_FALSE(store.resume_run(kRunA2));  // queued: not resumable
  EXPECT_TRUE(store.interrupt_run(testing::kRun, "agent a restarted (instance x replaced y)"));
  EXPECT_EQ(store.runs(testing::kRun).at(0).status, "interrupted");
  EXPECT_EQ(store.runs(testing::kRun).at(0).reason, "agent a restarted (instance x replaced y)");
  ingest_each(store, {finished}, IngestPolicy{true});
  EXPECT_EQ(store.queued_run(testing::kRun)->state, "ok");
  EXPECT_EQ(store.runs(testing::kRun).at(0).status, "ok");
  EXPECT_EQ(store.disconnect_dispatched_runs("again"), 1);  // kRunA1 only
}

// --interrupt-after: only rows disconnected that long; the reason names the
// agent and the time.
TEST(StoreQueue, InterruptStaleRunsTakesOnlyRowsDisconnectedLongEnough) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  store.enqueue_run(queued_run(kRunA1, "box-a"));
  store.enqueue_run(queued_run(kRunA2, "box-b"));
  store.mark_run_dispatched(kRunA1);
  store.mark_run_dispatched(kRunA2);
  store.mark_run_disconnected(kRunA1, "agent box-a disconnected: reset");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  store.mark_run_disconnected(kRunA2, "agent box-b disconnected: reset");
  const std::vector<QueuedRun> stale = store.interrupt_stale_runs(std::chrono::seconds(1));
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0].run_id, kRunA1);
  EXPECT_EQ(store.queued_run(kRunA1)->state, "interrupted");
  EXPECT_EQ(store.queued_run(kRunA1)->reason, "agent box-a disconnected for more than 1 s");
  EXPECT_EQ(store.queued_run(kRunA2)->state, "disconnected");
  EXPECT_TRUE(store.interrupt_stale_runs(std::chrono::seconds(1)).empty());
}

// A RunStarted replayed after the host interrupted the run: the runs row
// takes the interrupted state, not "running".
TEST(StoreQueue, ARunStartedAfterTheInterruptMirrorsIt) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  store.enqueue_run(queued_run(testing::kRun, testing::kAgent));
  store.mark_run_dispatched(testing::kRun, kInstance);
  store.mark_run_disconnected(testing::kRun, "agent disconnected: reset");
  store.interrupt_run(testing::kRun, "agent restarted (instance b replaced a)");
  std::vector<v1::Envelope> run = run_of_agent(testing::kAgent, testing::kRun, 1, kInstance);
  ingest_each(store, {run[0], run[1], run[2]}, IngestPolicy{true});  // Hello, Topology, RunStarted
  EXPECT_EQ(store.runs(testing::kRun).at(0).status, "interrupted");
  EXPECT_EQ(store.runs(testing::kRun).at(0).reason, "agent restarted (instance b replaced a)");
  EXPECT_EQ(store.queued_run(testing::kRun)->state, "interrupted");
}

TEST(StoreQueue, QueuedRunNotStartedReadsAsARunRecord) {
  TempDir tmp;
  Store store(tmp.file("q.db"));
  ingest_each(store, run_of_agent(testing::kAgent, testing::kRun, 1, kInstance));
  store.enqueue_run(queued_run(kRunA1, "box-a"));
  store.enqueue_run(queued_run(kRunA2, "box-a"));
  store.finish_queued_run(kRunA2, "aborted", "aborted by alice");

  const std::optional<RunRecord> r = store.queued_run_record(kRunA1);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->run_id, kRunA1);
  EXPECT_EQ(r->agent_id, "box-a");
  EXPECT_EQ(r->status, "queued");
  EXPECT_EQ(r->labels.at("tag"), "nightly");
  EXPECT_EQ(r->plan.at("name"), "fork-vs-features");
  EXPECT_TRUE(r->iterations.empty());
  EXPECT_EQ(r->started_at_ns, 0);
  EXPECT_EQ(store.queued_run_record(kRunA2)->status, "aborted");
  EXPECT_EQ(store.queued_run_record(kRunA2)->reason, "aborted by alice");
  EXPECT_FALSE(store.queued_run_record(testing::kRun).has_value());  // started: runs() has it
  EXPECT_FALSE(store.queued_run_record("nope").has_value());

  // Stored runs first, then unstarted queue rows in FIFO order; prefixes work.
  EXPECT_EQ(store.known_run_ids(), (std::vector<std::string>{testing::kRun, kRunA1, kRunA2}));
  EXPECT_EQ(store.known_run_ids("a1"), (std::vector<std::string>{kRunA1}));
  EXPECT_EQ(store.known_run_ids("a"), (std::vector<std::string>{kRunA1, kRunA2}));
  EXPECT_EQ(store.run_ids(), (std::vector<std::string>{testing::kRun}));
}

}  // namespace
}  // namespace schedrig::store
