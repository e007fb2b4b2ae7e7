// The spool's append, ack and replay on a temporary directory
// (docs/architecture.md "Spool").
#include "agent/spool/spool.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include <gtest/gtest.h>

#include "agent/spool/spool_error.h"
#include "common/envelope_codec.h"
#include "tests/agent/spool/spool_envelopes.h"
#include "tests/support/run_command.h"

namespace schedrig::spool {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): the test envelopes

// Small segments, so a few results roll several.
SpoolOptions small_segments() {
  SpoolOptions o;
  o.max_bytes = 1024 * 1024;
  o.segment_bytes = 1024;
  return o;
}

// Hello at seq 1, then results 2..last of ~`pad` bytes each.
void fill(Spool& spool, const std::string& instance, std::uint64_t last, std::size_t pad = 200) {
  ASSERT_EQ(spool.append(hello(instance, 1)).outcome, AppendOutcome::kStored);
  for (std::uint64_t seq = 2; seq <= last; ++seq)
    ASSERT_EQ(spool.append(result(instance, seq, pad)).outcome, AppendOutcome::kStored);
}

TEST(Spool, ReplaysEveryUnackedEnvelopeInSeqOrderAfterItsHello) {
  schedrig::testing::TempDir tmp;
  Spool spool(tmp.file("spool"));
  fill(spool, kInstanceA, 3);
  ASSERT_EQ(spool.append(sample(kInstanceA, 4)).outcome, AppendOutcome::kStored);
  ASSERT_EQ(spool.append(run_finished(kInstanceA, 6)).outcome, AppendOutcome::kStored);  // a gap

  const auto backlog = spool.unacked();
  ASSERT_EQ(backlog.size(), 1u);
  EXPECT_EQ(backlog[0].instance.instance_id, kInstanceA);
  EXPECT_EQ(backlog[0].instance.agent_id, "box1");
  ASSERT_TRUE(backlog[0].instance.hello);
  EXPECT_EQ(backlog[0].instance.hello->seq(), 1u);
  EXPECT_EQ(backlog[0].instance.hello->hello().kernel_release(), "6.8.0-test");
  EXPECT_EQ(seqs(backlog[0].envelopes), (std::vector<std::uint64_t>{2, 3, 4, 6}));
  EXPECT_EQ(backlog[0].envelopes[2].sample().ops_so_far(), 4000u);
  EXPECT_EQ(backlog[0].envelopes[3].run_finished().completed_iterations(), 7u);
  EXPECT_EQ(backlog[0].instance.last_seq, 6u);
  EXPECT_EQ(spool.stats().stored, 5u);
}

TEST(Spool, AnAckedPrefixIsNotReplayedAndTheAckSurvivesARestart) {
  schedrig::testing::TempDir tmp;
  {
    Spool spool(tmp.file("spool"));
    fill(spool, kInstanceA, 10);
    spool.ack(kInstanceA, 6);
    spool.ack(kInstanceA, 4);  // lower: changes nothing
    EXPECT_EQ(seqs(spool.unacked().at(0).envelopes), seq_range(7, 10));
  }
  Spool reopened(tmp.file("spool"));
  const auto backlog = reopened.unacked();
  ASSERT_EQ(backlog.size(), 1u);
  EXPECT_EQ(backlog[0].instance.acked_seq, 6u);
  ASSERT_TRUE(backlog[0].instance.hello);  // acked itself, still sent first
  EXPECT_EQ(seqs(backlog[0].envelopes), seq_range(7, 10));
  EXPECT_TRUE(reopened.recovery_notes().empty());
}

TEST(Spool, RestartKeepsEveryUnackedEnvelope) {
  schedrig::testing::TempDir tmp;
  {
    Spool spool(tmp.file("spool"), small_segments());
    fill(spool, kInstanceA, 30);
    ASSERT_EQ(spool.append(sample(kInstanceA, 31)).outcome, AppendOutcome::kStored);
  }
  Spool reopened(tmp.file("spool"), small_segments());
  const auto backlog = reopened.unacked();
  ASSERT_EQ(backlog.size(), 1u);
  EXPECT_EQ(seqs(backlog[0].envelopes), seq_range(2, 31));
  EXPECT_EQ(backlog[0].envelopes.back().sample().run_id(), kRun);
  EXPECT_GT(reopened.stats().segments, 5u);
}

TEST(Spool, SegmentsRollAndAreDeletedOnceEveryRecordIsAcked) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  Spool spool(dir, small_segments());
  fill(spool, kInstanceA, 40);
  const auto before = segment_files(dir);
  ASSERT_GE(before.size(), 8u);  // ~250-byte records, 1 KiB segments
  EXPECT_EQ(spool.stats().segments, before.size());

  spool.ack(kInstanceA, 20);
  const auto after = segment_files(dir);
  EXPECT_LT(after.size(), before.size());
  EXPECT_EQ(after.back(), before.back());
  // What is left starts at most one segment's worth before seq 21.
  const auto backlog = spool.unacked();
  EXPECT_EQ(seqs(backlog.at(0).envelopes), seq_range(21, 40));
  EXPECT_TRUE(backlog[0].instance.hello);  // the first segment is gone: a copy heads each

  spool.ack(kInstanceA, 40);
  EXPECT_EQ(segment_files(dir).size(), 1u);  // the one being appended to stays
  EXPECT_TRUE(spool.unacked().empty());
  EXPECT_TRUE(spool.pending().empty());
  EXPECT_EQ(spool.stats().bytes, std::filesystem::file_size(dir + "/" + segment_files(dir)[0]));
}

TEST(Spool, TheHelloCopyOutlivesTheFirstSegmentAcrossARestart) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  {
    Spool spool(dir, small_segments());
    fill(spool, kInstanceA, 40);
    spool.ack(kInstanceA, 30);
  }
  Spool reopened(dir, small_segments());
  const auto backlog = reopened.unacked();
  ASSERT_EQ(backlog.size(), 1u);
  ASSERT_TRUE(backlog[0].instance.hello);
  EXPECT_EQ(backlog[0].instance.hello->seq(), 1u);
  EXPECT_EQ(backlog[0].instance.hello->hello().hostname(), "box1");
  EXPECT_EQ(seqs(backlog[0].envelopes), seq_range(31, 40));
  for (const auto& name : segment_files(dir))
    EXPECT_EQ(name.find("-00000000000000000001."), std::string::npos) << name;
}

TEST(Spool, ReplaysTheOlderInstanceFirstThenTheNewOneEachInSeqOrder) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  {
    Spool first(dir, small_segments());  // the agent before a restart
    fill(first, kInstanceA, 20);
    first.ack(kInstanceA, 5);
  }
  Spool spool(dir, small_segments());  // the next agent: another instance
  fill(spool, kInstanceB, 15);

  const auto pending = spool.pending();
  ASSERT_EQ(pending.size(), 2u);
  EXPECT_EQ(pending[0].instance_id, kInstanceA);  // older, though its id sorts last
  EXPECT_EQ(pending[1].instance_id, kInstanceB);
  const auto backlog = spool.unacked();
  EXPECT_EQ(seqs(backlog.at(0).envelopes), seq_range(6, 20));
  EXPECT_EQ(seqs(backlog.at(1).envelopes), seq_range(2, 15));
  for (const auto& env : backlog[0].envelopes) EXPECT_EQ(env.instance_id(), kInstanceA);
  EXPECT_EQ(backlog[1].instance.hello->instance_id(), kInstanceB);

  spool.ack(kInstanceA, 20);  // the old instance replayed: its files go
  for (const auto& name : segment_files(dir)) EXPECT_EQ(name.find(kInstanceA), std::string::npos);
  ASSERT_EQ(spool.pending().size(), 1u);
  EXPECT_EQ(spool.pending()[0].instance_id, kInstanceB);
}

TEST(Spool, ACursorReadsLazilyAndSkipsWhatWasAckedWhenItWasMade) {
  schedrig::testing::TempDir tmp;
  Spool spool(tmp.file("spool"), small_segments());
  fill(spool, kInstanceA, 12);
  spool.ack(kInstanceA, 3);
  ReplayCursor cursor = spool.replay(kInstanceA);
  spool.ack(kInstanceA, 12);  // deletes segments the cursor has not reached: skipped
  std::vector<v1::Envelope> got;
  while (auto env = cursor.next()) got.push_back(*env);
  ASSERT_FALSE(got.empty());  // the segment being appended to is never deleted by an ack
  EXPECT_EQ(seqs(got), seq_range(got.front().seq(), 12));
  EXPECT_GT(got.front().seq(), 4u);  // the deleted segments were skipped
  EXPECT_FALSE(spool.replay("no-such-instance").next());
}

TEST(Spool, RefusesSeqsThatDoNotRiseASecondHelloAndBadInstanceIds) {
  schedrig::testing::TempDir tmp;
  Spool spool(tmp.file("spool"));
  fill(spool, kInstanceA, 5);
  EXPECT_THROW(spool.append(result(kInstanceA, 5)), std::invalid_argument);
  EXPECT_THROW(spool.append(result(kInstanceA, 3)), std::invalid_argument);
  EXPECT_THROW(spool.append(hello(kInstanceA, 9)), std::invalid_argument);
  EXPECT_THROW(spool.append(result("../etc", 1)), std::invalid_argument);
  EXPECT_THROW(spool.append(result(kInstanceB, 0)), std::invalid_argument);
  EXPECT_THROW(spool.append(result(kInstanceA, 6, kMaxEnvelopeBytes)), std::invalid_argument);
  EXPECT_EQ(spool.append(result(kInstanceA, 6)).outcome, AppendOutcome::kStored);
  EXPECT_EQ(seqs(spool.unacked().at(0).envelopes), seq_range(2, 6));
}

TEST(Spool, ResultsAreSyncedAtOnceSamplesInBatches) {
  schedrig::testing::TempDir tmp;
  SpoolOptions o;
  o.sample_sync_interval = std::chrono::hours(1);
  Spool spool(tmp.file("spool"), o);
  EXPECT_TRUE(spool.append(hello(kInstanceA, 1)).synced);
  const auto fsyncs = spool.stats().fsyncs;
  for (std::uint64_t seq = 2; seq < 12; ++seq)
    EXPECT_FALSE(spool.append(sample(kInstanceA, seq)).synced);
  EXPECT_EQ(spool.stats().fsyncs, fsyncs);
  EXPECT_TRUE(spool.append(result(kInstanceA, 12)).synced);  // takes the samples with it
  EXPECT_EQ(spool.stats().fsyncs, fsyncs + 1);
  EXPECT_FALSE(spool.sync());  // nothing left to sync
  EXPECT_FALSE(spool.append(sample(kInstanceA, 13)).synced);
  EXPECT_TRUE(spool.sync());
  v1::Envelope log = sample(kInstanceA, 14);
  log.mutable_log()->set_message("waiting for the knob lock");  // batched like a Sample
  EXPECT_FALSE(spool.append(log).synced);
  EXPECT_TRUE(spool.append(run_finished(kInstanceA, 15)).synced);

  SpoolOptions every;
  every.sample_sync_interval = std::chrono::milliseconds(0);
  Spool eager(tmp.file("eager"), every);
  eager.append(hello(kInstanceB, 1));
  EXPECT_TRUE(eager.append(sample(kInstanceB, 2)).synced);
}

TEST(Spool, DirectoryIs0700AndFiles0600) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("state/spool");
  const mode_t old = ::umask(0);
  {
    Spool spool(dir);
    fill(spool, kInstanceA, 3);
    spool.ack(kInstanceA, 2);
  }
  ::umask(old);
  EXPECT_EQ(std::filesystem::status(dir).permissions(), std::filesystem::perms::owner_all);
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.status().permissions(),
              std::filesystem::perms::owner_read | std::filesystem::perms::owner_write)
        << e.path();
}

TEST(Spool, ADirectoryThatIsALinkIsRefused) {
  schedrig::testing::TempDir tmp;
  std::filesystem::create_directory(tmp.file("real"));
  std::filesystem::create_directory_symlink(tmp.file("real"), tmp.file("spool"));
  try {
    Spool spool(tmp.file("spool"));
    FAIL() << "opened a link";
  } catch (const SpoolError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find(tmp.file("spool")), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace schedrig::spool
