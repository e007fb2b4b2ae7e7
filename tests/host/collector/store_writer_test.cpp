// The store writer without a network: batches, outcomes in order, a full
// queue that refuses and calls back when there is room, stop draining.
#include "host/collector/store_writer.h"

#include <atomic>
#include <future>
#include <mutex>
#include <vector>

#include <gtest/gtest.h>

#include "tests/host/server/test_server.h"

namespace schedrig::collector {
namespace {

using namespace std::chrono_literals;
using schedrig::testing::hello;
using Status = WriteOutcome::Status;

struct Recorder {
  std::mutex mu;
  std::vector<std::pair<std::uint64_t, Status>> outcomes;
  WriteItem item(const v1::Envelope& env) {
    auto shared = std::make_shared<const v1::Envelope>(env);
    return WriteItem{shared, encode_envelope(env), [this, shared](const WriteOutcome& o) {
                       std::lock_guard lock(mu);
                       outcomes.emplace_back(shared->seq(), o.status);
                     }};
  }
};

TEST(StoreWriterUnit, StoresInOrderAndTellsDuplicates) {
  store::Store store(":memory:");
  Recorder rec;
  {
    StoreWriter writer(store, {});
    for (std::uint64_t seq : {1, 2, 2, 3}) {
      WriteItem item = rec.item(hello("box1", seq));
      ASSERT_TRUE(writer.submit(item, [] {}));
    }
    writer.stop();  // drains
  }
  ASSERT_EQ(rec.outcomes.size(), 4u);
  EXPECT_EQ(rec.outcomes[0], std::make_pair(std::uint64_t{1}, Status::kStored));
  EXPECT_EQ(rec.outcomes[1], std::make_pair(std::uint64_t{2}, Status::kStored));
  EXPECT_EQ(rec.outcomes[2], std::make_pair(std::uint64_t{2}, Status::kDuplicate));
  EXPECT_EQ(rec.outcomes[3], std::make_pair(std::uint64_t{3}, Status::kStored));
}

TEST(StoreWriterUnit, AFullQueueRefusesThenCallsBackWithRoom) {
  store::Store store(":memory:");
  Recorder rec;
  StoreWriterOptions options;
  options.capacity = 2;
  options.max_batch = 1;
  StoreWriter writer(store, options);
  writer.pause();
  WriteItem a = rec.item(hello("box1", 1));
  WriteItem b = rec.item(hello("box1", 2));
  WriteItem c = rec.item(hello("box1", 3));
  ASSERT_TRUE(writer.submit(a, [] {}));
  ASSERT_TRUE(writer.submit(b, [] {}));
  std::promise<void> room;
  EXPECT_FALSE(writer.submit(c, [&room] { room.set_value(); }));
  EXPECT_TRUE(c.env) << "a refused item is left to its owner";
  EXPECT_EQ(writer.queued(), 2u);
  writer.resume();
  EXPECT_EQ(room.get_future().wait_for(5s), std::future_status::ready);
  EXPECT_TRUE(writer.submit(c, [] {}));
  writer.stop();
  EXPECT_EQ(rec.outcomes.size(), 3u);
}

TEST(StoreWriterUnit, ItemsAfterStopFail) {
  store::Store store(":memory:");
  Recorder rec;
  StoreWriter writer(store, {});
  writer.stop();
  WriteItem late = rec.item(hello("box1", 1));
  EXPECT_TRUE(writer.submit(late, [] {}));
  ASSERT_EQ(rec.outcomes.size(), 1u);
  EXPECT_EQ(rec.outcomes[0].second, Status::kFailed);
}

}  // namespace
}  // namespace schedrig::collector
