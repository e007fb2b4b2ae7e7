// CRC-32C and the checked record frame of offline files and the spool.
#include "common/record/record_frame.h"

#include <gtest/gtest.h>

#include <sstream>

#include "common/record/crc32c.h"

namespace schedrig::record {
namespace {

TEST(Crc32c, MatchesTheRfc3720CheckValues) {
  EXPECT_EQ(crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(crc32c(std::string(32, '\0')), 0x8A9136AAu);  // RFC 3720 B.4: 32 bytes of zeros
  EXPECT_EQ(crc32c(std::string(32, '\xff')), 0x62A8AB43u);
  EXPECT_EQ(crc32c(""), 0u);
  EXPECT_EQ(crc32c("1234", "56789"), crc32c("123456789"));
}

TEST(RecordFrame, LayoutIsLengthCrcPayload) {
  const std::string f = framed_record("abc");
  ASSERT_EQ(f.size(), kRecordHeaderBytes + 3);
  EXPECT_EQ(f.substr(0, 4), std::string("\x03\x00\x00\x00", 4));
  const std::uint32_t crc =
      crc32c(std::string("\x03\x00\x00\x00"
                         "abc",
                         7));
  std::string le(4, '\0');
  for (int i = 0; i < 4; ++i) le[static_cast<std::size_t>(i)] = static_cast<char>(crc >> (8 * i));
  EXPECT_EQ(f.substr(4, 4), le);
  EXPECT_EQ(f.substr(8), "abc");
}

TEST(RecordFrame, ReadsRecordsBackToACleanEnd) {
  std::string bytes;
  append_record(bytes, "first");
  append_record(bytes, "");
  append_record(bytes, std::string(1000, 'x'));
  std::istringstream in(bytes);
  EXPECT_EQ(read_record(in, 4096).payload, "first");
  RecordRead empty = read_record(in, 4096);
  EXPECT_EQ(empty.status, RecordStatus::kOk);
  EXPECT_EQ(empty.payload, "");
  EXPECT_EQ(read_record(in, 4096).payload, std::string(1000, 'x'));
  EXPECT_EQ(read_record(in, 4096).status, RecordStatus::kEnd);
}

TEST(RecordFrame, EveryTruncationIsTruncatedNeverOk) {
  const std::string f = framed_record("payload");
  for (std::size_t cut = 1; cut < f.size(); ++cut) {
    std::istringstream in(f.substr(0, cut));
    EXPECT_EQ(read_record(in, 4096).status, RecordStatus::kTruncated) << "cut at " << cut;
  }
}

TEST(RecordFrame, EverySingleBitFlipIsCaught) {
  const std::string f = framed_record("a sample of 24 bytes....");
  for (std::size_t bit = 0; bit < f.size() * 8; ++bit) {
    std::string bad = f;
    bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (1 << (bit % 8)));
    std::istringstream in(bad);
    const RecordRead r = read_record(in, 4096);
    EXPECT_NE(r.status, RecordStatus::kOk) << "bit " << bit;
  }
}

TEST(RecordFrame, ALengthOverTheBoundIsNotAllocated) {
  std::string f = framed_record(std::string(100, 'x'));
  std::istringstream in(f);
  const RecordRead r = read_record(in, 99);
  EXPECT_EQ(r.status, RecordStatus::kTooLarge);
  EXPECT_EQ(r.length, 100u);
  EXPECT_STREQ(status_name(r.status), "too large");
}

}  // namespace
}  // namespace schedrig::record
