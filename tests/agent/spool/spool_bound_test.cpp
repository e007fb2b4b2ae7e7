// The spool's bound (docs/architecture.md "Spool"): Samples are dropped
// first (at 7/8 of max_bytes) and counted per run; results are never
// dropped: append answers kFull until acks free room.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "agent/spool/spool.h"
#include "tests/agent/spool/spool_envelopes.h"
#include "tests/support/run_command.h"

namespace schedrig::spool {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): the test envelopes

constexpr std::uint64_t kMax = 64 * 1024;
constexpr std::uint64_t kSampleLimit = kMax - kMax / 8;

SpoolOptions bounded() {
  SpoolOptions o;
  o.max_bytes = kMax;
  return o;
}

// Appends Samples of `run` from `seq` on until one is dropped; returns the
// seq after the dropped one.
std::uint64_t samples_until_dropped(Spool& spool, std::uint64_t seq, const std::string& run) {
  while (spool.append(sample(kInstanceA, seq, run)).outcome == AppendOutcome::kStored) ++seq;
  return seq + 1;
}

// Appends results of ~300 bytes from `seq` on until one is refused; returns its seq.
std::uint64_t results_until_full(Spool& spool, std::uint64_t seq) {
  while (spool.append(result(kInstanceA, seq, 300)).outcome == AppendOutcome::kStored) ++seq;
  return seq;
}

TEST(SpoolBound, SamplesAreDroppedAtSevenEighthsAndCountedPerRun) {
  schedrig::testing::TempDir tmp;
  Spool spool(tmp.file("spool"), bounded());
  spool.append(hello(kInstanceA, 1));
  std::uint64_t seq = samples_until_dropped(spool, 2, kRun);
  const SpoolStats at_drop = spool.stats();
  EXPECT_LE(at_drop.bytes, kSampleLimit);
  EXPECT_GT(at_drop.bytes, kSampleLimit - 1024);  // dropped only when about full
  EXPECT_EQ(at_drop.dropped_samples, 1u);

  for (int i = 0; i < 9; ++i)
    EXPECT_EQ(spool.append(sample(kInstanceA, seq++)).outcome, AppendOutcome::kDroppedSample);
  EXPECT_EQ(spool.append(sample(kInstanceA, seq++, "other-run")).outcome,
            AppendOutcome::kDroppedSample);
  EXPECT_EQ(spool.dropped_samples(kRun), 10u);
  EXPECT_EQ(spool.dropped_samples("other-run"), 1u);
  EXPECT_EQ(spool.dropped_samples("no-such-run"), 0u);
  EXPECT_EQ(spool.stats().bytes, at_drop.bytes);  // nothing written

  // Results still have the last eighth.
  const auto stored = spool.append(result(kInstanceA, seq, 300));
  EXPECT_EQ(stored.outcome, AppendOutcome::kStored);
  EXPECT_TRUE(stored.synced);
  EXPECT_EQ(spool.unacked().at(0).envelopes.back().seq(), seq);
}

TEST(SpoolBound, ResultsAreNeverDroppedButRefusedFullUntilAnAckFreesRoom) {
  schedrig::testing::TempDir tmp;
  Spool spool(tmp.file("spool"), bounded());
  spool.append(hello(kInstanceA, 1));
  std::uint64_t seq = samples_until_dropped(spool, 2, kRun);
  const std::uint64_t refused = results_until_full(spool, seq);
  EXPECT_LE(spool.stats().bytes, kMax);
  EXPECT_GT(spool.stats().bytes, kMax - 1024);

  // Every non-Sample body answers kFull, not a drop.
  EXPECT_EQ(spool.append(run_finished(kInstanceA, refused, 400)).outcome, AppendOutcome::kFull);
  v1::Envelope error = run_finished(kInstanceA, refused);
  error.mutable_error()->set_message(std::string(400, 'e'));
  EXPECT_EQ(spool.append(error).outcome, AppendOutcome::kFull);
  EXPECT_EQ(spool.stats().full, 3u);
  EXPECT_EQ(spool.dropped_samples(kRun), 1u);
  EXPECT_EQ(spool.unacked().at(0).envelopes.back().seq(), refused - 1);
  EXPECT_FALSE(spool.wait_for_room(result(kInstanceA, refused, 300), std::chrono::milliseconds(0)));

  // An ack on another thread frees room; the refused result is retried with its seq.
  std::thread host([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    spool.ack(kInstanceA, refused / 2);
  });
  EXPECT_TRUE(spool.wait_for_room(result(kInstanceA, refused, 300), std::chrono::seconds(10)));
  host.join();
  EXPECT_EQ(spool.append(result(kInstanceA, refused, 300)).outcome, AppendOutcome::kStored);
  const auto backlog = spool.unacked().at(0);
  EXPECT_EQ(backlog.envelopes.back().seq(), refused);
  EXPECT_EQ(backlog.envelopes.front().seq(), refused / 2 + 1);
}

TEST(SpoolBound, AFullyAckedSpoolTakesResultsAgainEvenItsLastSegment) {
  schedrig::testing::TempDir tmp;
  Spool spool(tmp.file("spool"), bounded());
  spool.append(hello(kInstanceA, 1));
  const std::uint64_t refused = results_until_full(spool, 2);
  spool.ack(kInstanceA, refused - 1);
  EXPECT_EQ(spool.append(result(kInstanceA, refused, 300)).outcome, AppendOutcome::kStored);
  EXPECT_LT(spool.stats().bytes, kMax / 8);
  // The segment the result went to starts with the Hello's copy: a restart replays it.
  const auto backlog = spool.unacked();
  ASSERT_EQ(backlog.size(), 1u);
  ASSERT_TRUE(backlog[0].instance.hello);
  EXPECT_EQ(seqs(backlog[0].envelopes), std::vector<std::uint64_t>{refused});
}

}  // namespace
}  // namespace schedrig::spool
