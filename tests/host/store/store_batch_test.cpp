// Store::ingest_batch: one transaction; a failing item changes nothing and
// reports its error, the others commit (refusals are checked before an item
// writes; an item that fails after writing sends the batch to a savepoint
// per item).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "host/store/store.h"
#include "tests/host/store/queued_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::store {
namespace {

using schedrig::testing::kAgent;
using schedrig::testing::kInstance;
using schedrig::testing::kRun;
using schedrig::testing::RawDb;
using schedrig::testing::run_of_agent;
using schedrig::testing::TempDir;

std::string hex(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) out += fmt::format("{:02X}", c);
  return out;
}

// The items of `envs`; `bytes` keeps the encodings alive.
std::vector<IngestItem> items_of(const std::vector<v1::Envelope>& envs,
                                 std::vector<std::string>& bytes) {
  bytes.clear();
  for (const v1::Envelope& env : envs) bytes.push_back(encode_envelope(env));
  std::vector<IngestItem> items;
  for (std::size_t i = 0; i < envs.size(); ++i) items.push_back({&envs[i], bytes[i]});
  return items;
}

TEST(StoreBatch, WholeRunInOneBatchIsStored) {
  TempDir tmp;
  const std::string path = tmp.file("b.db");
  Store store(path);
  const std::vector<v1::Envelope> run = run_of_agent(kAgent, kRun, 1, kInstance);
  std::vector<std::string> bytes;
  const std::vector<IngestOutcome> out = store.ingest_batch(items_of(run, bytes));
  ASSERT_EQ(out.size(), run.size());
  for (const IngestOutcome& o : out) {
    EXPECT_FALSE(o.error.has_value());
    EXPECT_EQ(o.result, Store::Ingest::kStored);
  }
  EXPECT_EQ(RawDb(path).count("envelopes"), 7);
  const RunRecord r = store.runs().at(0);
  EXPECT_EQ(r.status, "ok");
  EXPECT_EQ(r.iterations.size(), 3u);
  EXPECT_EQ(RawDb(path).scalar("SELECT hex(body) FROM envelopes WHERE seq = 4"), hex(bytes[3]));

  // The same batch again: every item a duplicate, nothing added.
  for (const IngestOutcome& o : store.ingest_batch(items_of(run, bytes))) {
    EXPECT_FALSE(o.error.has_value());
    EXPECT_EQ(o.result, Store::Ingest::kDuplicate);
  }
  EXPECT_EQ(RawDb(path).count("envelopes"), 7);
}

TEST(StoreBatch, OneBadItemChangesNothingAndTheRestCommit) {
  TempDir tmp;
  const std::string path = tmp.file("b.db");
  Store store(path);
  std::vector<v1::Envelope> run = run_of_agent(kAgent, kRun, 1, kInstance);
  run.insert(run.begin() + 4, run[4]);  // a duplicate of the second result, in the same batch
  v1::Envelope no_seq = run[3];
  no_seq.set_seq(0);
  v1::Envelope stolen = run[5];  // another agent's result under this instance
  stolen.set_agent_id("intruder-01");
  stolen.set_seq(50);
  run.insert(run.begin() + 3, no_seq);
  run.insert(run.begin() + 6, stolen);
  // Now: Hello, Topology, RunStarted, bad(no seq), it1, it2, stolen, it2 again, it3, RunFinished.
  std::vector<std::string> bytes;
  const std::vector<IngestOutcome> out = store.ingest_batch(items_of(run, bytes));
  ASSERT_EQ(out.size(), 10u);
  for (std::size_t i = 0; i < out.size(); ++i) {
    SCOPED_TRACE(i);
    if (i == 3) {
      ASSERT_TRUE(out[i].error.has_value());
      EXPECT_EQ(out[i].error->reason(), StoreError::Reason::kBadContent);
    } else if (i == 6) {
      ASSERT_TRUE(out[i].error.has_value());
      EXPECT_EQ(out[i].error->reason(), StoreError::Reason::kNotOwner);
      EXPECT_NE(std::string(out[i].error->what()).find("intruder-01"), std::string::npos);
    } else {
      EXPECT_FALSE(out[i].error.has_value()) << out[i].error->what();
      EXPECT_EQ(out[i].result, i == 7 ? Store::Ingest::kDuplicate : Store::Ingest::kStored);
    }
  }
  RawDb raw(path);
  EXPECT_EQ(raw.count("envelopes"), 7);
  EXPECT_EQ(raw.count("iterations"), 3);
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM envelopes WHERE agent_id = 'intruder-01'"), "0");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM agents WHERE agent_id = 'intruder-01'"), "0");
  EXPECT_EQ(store.runs().at(0).status, "ok");
}

TEST(StoreBatch, AnItemFailingAfterItWroteIsUndoneAloneAndTheRestCommit) {
  TempDir tmp;
  const std::string path = tmp.file("b.db");
  Store store(path);
  // The second IterationResult fails in the derived tables, after its raw
  // envelope row went in.
  RawDb(path).exec(
      "CREATE TRIGGER fail_it2 BEFORE INSERT ON iterations WHEN NEW.iteration = 2 "
      "BEGIN SELECT RAISE(ABORT, 'injected'); END");
  const std::vector<v1::Envelope> run = run_of_agent(kAgent, kRun, 1, kInstance);
  // Hello, Topology, RunStarted, it1, it2, it3, RunFinished.
  std::vector<std::string> bytes;
  const std::vector<IngestOutcome> out = store.ingest_batch(items_of(run, bytes));
  ASSERT_EQ(out.size(), 7u);
  for (std::size_t i = 0; i < out.size(); ++i) {
    SCOPED_TRACE(i);
    if (i == 4) {
      ASSERT_TRUE(out[i].error.has_value());
      EXPECT_NE(std::string(out[i].error->what()).find("injected"), std::string::npos);
    } else {
      EXPECT_FALSE(out[i].error.has_value()) << out[i].error->what();
      EXPECT_EQ(out[i].result, Store::Ingest::kStored);
    }
  }
  RawDb raw(path);
  EXPECT_EQ(raw.count("envelopes"), 6);  // not the failed one's raw row
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM envelopes WHERE seq = 5"), "0");
  EXPECT_EQ(raw.count("iterations"), 2);
  EXPECT_EQ(store.runs().at(0).status, "ok");
}

TEST(StoreBatch, PolicyAppliesToEveryItem) {
  TempDir tmp;
  const std::string path = tmp.file("b.db");
  Store store(path);
  const std::vector<v1::Envelope> run = run_of_agent(kAgent, kRun, 1, kInstance);
  std::vector<std::string> bytes;
  const std::vector<IngestOutcome> out =
      store.ingest_batch(items_of(run, bytes), IngestPolicy{true});
  EXPECT_FALSE(out[0].error.has_value());  // Hello
  EXPECT_FALSE(out[1].error.has_value());  // Topology
  for (std::size_t i = 2; i < out.size(); ++i) {
    ASSERT_TRUE(out[i].error.has_value()) << i;
    EXPECT_EQ(out[i].error->reason(), StoreError::Reason::kUnknownRun);  // no queue row
  }
  EXPECT_EQ(RawDb(path).count("envelopes"), 2);
  EXPECT_TRUE(store.runs().empty());
  EXPECT_TRUE(store.ingest_batch({}).empty());
}

}  // namespace
}  // namespace schedrig::store
