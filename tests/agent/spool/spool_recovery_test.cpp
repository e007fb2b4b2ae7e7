// Opening a spool after a crash or damage (agent/spool/recovery.h): a torn
// last record is cut off at every byte, a bad CRC stops its segment there,
// no single-bit flip anywhere in a segment replays a changed envelope.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "agent/spool/segment_format.h"
#include "agent/spool/spool.h"
#include "common/envelope_codec.h"
#include "common/record/record_frame.h"
#include "tests/agent/spool/spool_envelopes.h"
#include "tests/support/run_command.h"

namespace schedrig::spool {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): the test envelopes

std::string framed(const v1::Envelope& env) { return record::framed_record(encode_envelope(env)); }

// A one-segment spool in `dir`: Hello 1, results 2..4. Returns the
// segment's name.
std::string clean_spool(const std::string& dir) {
  Spool spool(dir);
  spool.append(hello(kInstanceA, 1));
  for (std::uint64_t seq = 2; seq <= 4; ++seq) spool.append(result(kInstanceA, seq, 40));
  return segment_files(dir).at(0);
}

// A fresh spool directory holding one segment `name` with `bytes`.
std::string spool_with(const schedrig::testing::TempDir& tmp, const std::string& sub,
                       const std::string& name, const std::string& bytes) {
  const std::string dir = tmp.file(sub);
  std::filesystem::create_directory(dir);
  write_file(dir + "/" + name, bytes);
  return dir;
}

TEST(SpoolRecovery, ATornLastRecordIsCutOffWhereverTheCrashCut) {
  schedrig::testing::TempDir tmp;
  const std::string name = clean_spool(tmp.file("clean"));
  const std::string bytes = read_file(tmp.file("clean/" + name));
  const std::size_t last = bytes.size() - framed(result(kInstanceA, 4, 40)).size();
  for (std::size_t cut = last; cut < bytes.size(); ++cut) {
    SCOPED_TRACE(cut);
    const std::string dir = spool_with(tmp, fmt::format("cut{}", cut), name, bytes.substr(0, cut));
    {
      Spool spool(dir);
      EXPECT_EQ(seqs(spool.unacked().at(0).envelopes), (std::vector<std::uint64_t>{2, 3}));
      if (cut == last) {
        EXPECT_TRUE(spool.recovery_notes().empty());  // a clean end
      } else {
        ASSERT_EQ(spool.recovery_notes().size(), 1u);
        EXPECT_EQ(spool.recovery_notes()[0].file, name);
        EXPECT_EQ(spool.recovery_notes()[0].offset, last);
        EXPECT_NE(spool.recovery_notes()[0].what.find("torn"), std::string::npos);
      }
      EXPECT_EQ(std::filesystem::file_size(dir + "/" + name), last);
      if (cut == last + 1) {  // the spool goes on (syncs: once is enough)
        EXPECT_EQ(spool.append(result(kInstanceA, 5)).outcome, AppendOutcome::kStored);
      }
    }
    Spool again(dir);  // cut cleanly: nothing to say the second time
    EXPECT_TRUE(again.recovery_notes().empty());
    EXPECT_EQ(seqs(again.unacked().at(0).envelopes).size(), cut == last + 1 ? 3u : 2u);
  }
}

TEST(SpoolRecovery, AFileCutInsideItsHeaderIsSetAsideOrRemovedWhenEmpty) {
  schedrig::testing::TempDir tmp;
  const std::string name = clean_spool(tmp.file("clean"));
  const std::string bytes = read_file(tmp.file("clean/" + name));
  const std::size_t header = encode_segment_header({1, kInstanceA, "box1"}).size();
  for (std::size_t cut = 0; cut < header; ++cut) {
    const std::string dir = spool_with(tmp, fmt::format("cut{}", cut), name, bytes.substr(0, cut));
    Spool spool(dir);
    EXPECT_TRUE(spool.unacked().empty()) << cut;
    ASSERT_EQ(spool.recovery_notes().size(), 1u) << cut;
    EXPECT_EQ(spool.recovery_notes()[0].offset, 0u);
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + name)) << cut;
    EXPECT_EQ(std::filesystem::exists(dir + "/" + name + ".damaged"), cut > 0) << cut;
  }
}

TEST(SpoolRecovery, ABadCrcStopsTheSegmentThereAndNamesFileAndOffset) {
  schedrig::testing::TempDir tmp;
  const std::string name = clean_spool(tmp.file("clean"));
  std::string bytes = read_file(tmp.file("clean/" + name));
  const std::size_t third = bytes.size() - framed(result(kInstanceA, 4, 40)).size() -
                            framed(result(kInstanceA, 3, 40)).size();
  bytes[third + 20] = static_cast<char>(bytes[third + 20] ^ 0x10);
  const std::string dir = spool_with(tmp, "flipped", name, bytes);
  Spool spool(dir);
  EXPECT_EQ(seqs(spool.unacked().at(0).envelopes), std::vector<std::uint64_t>{2});  // not 4
  ASSERT_EQ(spool.recovery_notes().size(), 1u);
  EXPECT_EQ(spool.recovery_notes()[0].file, name);
  EXPECT_EQ(spool.recovery_notes()[0].offset, third);
  EXPECT_NE(spool.recovery_notes()[0].what.find("bad CRC"), std::string::npos)
      << spool.recovery_notes()[0].what;
  EXPECT_EQ(read_file(dir + "/" + name), bytes);  // kept as found
}

TEST(SpoolRecovery, NoSingleBitFlipReplaysAChangedEnvelope) {
  schedrig::testing::TempDir tmp;
  const std::string name = clean_spool(tmp.file("clean"));
  const std::string bytes = read_file(tmp.file("clean/" + name));
  std::vector<std::string> clean;
  for (std::uint64_t seq = 2; seq <= 4; ++seq)
    clean.push_back(encode_envelope(result(kInstanceA, seq, 40)));
  const std::string clean_hello = encode_envelope(hello(kInstanceA, 1));
  // One directory, the file rewritten in place: freeing blocks is slow on
  // a disk mounted with discard.
  const std::string dir = spool_with(tmp, "flips", name, bytes);
  const std::string path = dir + "/" + name;
  for (std::size_t bit = 0; bit < bytes.size() * 8; ++bit) {
    SCOPED_TRACE(bit);
    std::string flipped = bytes;
    flipped[bit / 8] = static_cast<char>(flipped[bit / 8] ^ (1 << (bit % 8)));
    if (std::filesystem::exists(path + ".damaged"))
      std::filesystem::rename(path + ".damaged", path);
    if (!std::filesystem::exists(path))  // nothing good in it: deleted as acked
      write_file(path, flipped);
    std::fstream(path, std::ios::in | std::ios::out | std::ios::binary)
        .write(flipped.data(), static_cast<std::streamsize>(flipped.size()));
    Spool spool(dir);
    EXPECT_EQ(spool.recovery_notes().size(), 1u);  // every flip is found
    for (const InstanceBacklog& b : spool.unacked()) {
      ASSERT_TRUE(b.instance.hello);
      EXPECT_EQ(encode_envelope(*b.instance.hello), clean_hello);
      ASSERT_LE(b.envelopes.size(), clean.size());
      for (std::size_t i = 0; i < b.envelopes.size(); ++i)
        EXPECT_EQ(encode_envelope(b.envelopes[i]), clean[i]);  // a prefix, unchanged
    }
  }
}

TEST(SpoolRecovery, DamageInOneSegmentLeavesLaterSegmentsReplayed) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  SpoolOptions o;
  o.segment_bytes = 1024;
  {
    Spool spool(dir, o);
    spool.append(hello(kInstanceA, 1));
    for (std::uint64_t seq = 2; seq <= 30; ++seq) spool.append(result(kInstanceA, seq, 200));
  }
  const auto names = segment_files(dir);
  ASSERT_GE(names.size(), 4u);
  std::string second = read_file(dir + "/" + names[1]);
  second[second.size() - 10] =
      static_cast<char>(second[second.size() - 10] ^ 1);  // its last record
  write_file(dir + "/" + names[1], second);

  Spool spool(dir, o);
  ASSERT_EQ(spool.recovery_notes().size(), 1u);
  EXPECT_EQ(spool.recovery_notes()[0].file, names[1]);
  const auto got = seqs(spool.unacked().at(0).envelopes);
  EXPECT_EQ(got.size(), 28u);  // one record lost, no more
  EXPECT_EQ(got.back(), 30u);
  for (std::size_t i = 1; i < got.size(); ++i) EXPECT_GT(got[i], got[i - 1]);
}

TEST(SpoolRecovery, ABadHeaderIsSetAsideAndOtherFilesAreLeftAlone) {
  schedrig::testing::TempDir tmp;
  const std::string name = clean_spool(tmp.file("clean"));
  std::string bytes = read_file(tmp.file("clean/" + name));
  bytes[0] = 'X';
  const std::string dir = spool_with(tmp, "bad", name, bytes);
  write_file(dir + "/README", "not a segment");
  {
    Spool spool(dir);
    EXPECT_TRUE(spool.unacked().empty());
    ASSERT_EQ(spool.recovery_notes().size(), 1u);
    EXPECT_NE(spool.recovery_notes()[0].what.find("bad magic"), std::string::npos);
    EXPECT_EQ(spool.stats().bytes, 0u);
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/" + name + ".damaged"));
  EXPECT_EQ(read_file(dir + "/README"), "not a segment");
  Spool again(dir);
  EXPECT_TRUE(again.recovery_notes().empty());  // said once
}

TEST(SpoolRecovery, ASeqGoingBackOrAForeignInstanceStopsTheSegment) {
  schedrig::testing::TempDir tmp;
  const std::string header = encode_segment_header({1, kInstanceA, "box1"});
  const std::string name = segment_file_name(1, kInstanceA, 1);
  const std::string good = header + framed(hello(kInstanceA, 1)) + framed(result(kInstanceA, 2)) +
                           framed(result(kInstanceA, 5));
  struct Case {
    std::string bad;
    std::string why;
  };
  for (const Case& c : {Case{framed(result(kInstanceA, 3)), "not above 5"},
                        Case{framed(result(kInstanceB, 6)), "another instance"}}) {
    const std::string dir =
        spool_with(tmp, c.why, name, good + c.bad + framed(result(kInstanceA, 9)));
    Spool spool(dir);
    EXPECT_EQ(seqs(spool.unacked().at(0).envelopes), (std::vector<std::uint64_t>{2, 5}));
    ASSERT_EQ(spool.recovery_notes().size(), 1u);
    EXPECT_EQ(spool.recovery_notes()[0].offset, good.size());
    EXPECT_NE(spool.recovery_notes()[0].what.find(c.why), std::string::npos)
        << spool.recovery_notes()[0].what;
  }
}

}  // namespace
}  // namespace schedrig::spool
