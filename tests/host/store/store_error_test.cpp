// StoreError's reason and kind for each way a file is not a usable store:
// callers decide on these (watch waits on not_ready), never on the message.
#include <fstream>

#include <gtest/gtest.h>

#include "host/store/store.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::store {
namespace {

using schedrig::testing::RawDb;
using schedrig::testing::TempDir;
using Reason = StoreError::Reason;

// The StoreError `fn` throws; fails the test if it throws none.
template <typename Fn>
StoreError thrown(Fn fn) {
  try {
    fn();
  } catch (const StoreError& e) {
    return e;
  }
  ADD_FAILURE() << "no StoreError thrown";
  return StoreError(Reason::kSql, "none");
}

TEST(StoreErrorReason, MissingFileReadOnlyIsNotReadyYet) {
  TempDir tmp;
  const StoreError e = thrown([&] { Store s(tmp.file("none.db"), Store::Mode::kReadOnly); });
  EXPECT_EQ(e.reason(), Reason::kMissing);
  EXPECT_TRUE(e.not_ready());
  EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  EXPECT_EQ(e.exit_code(), kExitUsage);
}

TEST(StoreErrorReason, EmptySqliteFileReadOnlyHasNoSchemaYet) {
  TempDir tmp;
  const std::string path = tmp.file("empty.db");
  RawDb(path).exec("CREATE TABLE unrelated (x)");
  const StoreError e = thrown([&] { Store s(path, Store::Mode::kReadOnly); });
  EXPECT_EQ(e.reason(), Reason::kNoSchema);
  EXPECT_TRUE(e.not_ready());
}

TEST(StoreErrorReason, OlderSchemaReadOnlyIsStillBeingBroughtUp) {
  TempDir tmp;
  const std::string path = tmp.file("old.db");
  RawDb(path).exec("PRAGMA user_version = 1");
  const StoreError e = thrown([&] { Store s(path, Store::Mode::kReadOnly); });
  EXPECT_EQ(e.reason(), Reason::kOldSchema);
  EXPECT_TRUE(e.not_ready());
}

TEST(StoreErrorReason, GarbageFileIsNotAStore) {
  TempDir tmp;
  const std::string path = tmp.file("garbage.db");
  std::ofstream(path) << std::string(4096, 'x');
  const StoreError e = thrown([&] { Store s(path, Store::Mode::kReadOnly); });
  EXPECT_EQ(e.reason(), Reason::kNotAStore);
  EXPECT_FALSE(e.not_ready());
  EXPECT_EQ(e.kind(), ErrorKind::kUsage);
}

TEST(StoreErrorReason, NewerSchemaIsRefusedForGood) {
  TempDir tmp;
  const std::string path = tmp.file("future.db");
  RawDb(path).exec("PRAGMA user_version = 99");
  const StoreError e = thrown([&] { Store s(path); });
  EXPECT_EQ(e.reason(), Reason::kNewerSchema);
  EXPECT_FALSE(e.not_ready());
}

TEST(StoreErrorReason, MissingDirectoryCannotBeOpened) {
  TempDir tmp;
  const StoreError e = thrown([&] { Store s(tmp.file("no/such/dir/x.db")); });
  EXPECT_EQ(e.reason(), Reason::kCannotOpen);
  EXPECT_FALSE(e.not_ready());
}

TEST(StoreErrorReason, EnvelopeWithoutIdsIsBadContentAndAFailure) {
  Store s(":memory:");
  v1::Envelope env;
  env.mutable_ping();
  const StoreError e = thrown([&] { s.ingest(env, ""); });
  EXPECT_EQ(e.reason(), Reason::kBadContent);
  EXPECT_EQ(e.kind(), ErrorKind::kFailed);
  EXPECT_EQ(e.exit_code(), kExitFailed);
}

TEST(StoreErrorReason, KindOfEveryReason) {
  for (Reason r : {Reason::kBusy, Reason::kSql, Reason::kBadContent})
    EXPECT_EQ(StoreError::kind_for(r), ErrorKind::kFailed);
  for (Reason r : {Reason::kMissing, Reason::kCannotOpen, Reason::kNotAStore, Reason::kNoSchema,
                   Reason::kOldSchema, Reason::kNewerSchema, Reason::kNotOwner})
    EXPECT_EQ(StoreError::kind_for(r), ErrorKind::kUsage);
}

}  // namespace
}  // namespace schedrig::store
