// Offline envelope files: magic, version, checked records (version 2) and
// varint-framed ones (version 1, still read); the reader's record positions.
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/envelope_codec.h"
#include "common/offline_file.h"
#include "common/record/record_frame.h"

namespace schedrig {
namespace {

// Runs `f`, expecting std::runtime_error; returns what().
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::runtime_error";
  return "";
}

std::string varint_bytes(std::uint64_t v) {
  std::ostringstream out;
  write_varint(out, v);
  return out.str();
}

TEST(OfflineFile, HeaderIsMagicThenVersion) {
  std::ostringstream out;
  write_offline_header(out);
  EXPECT_EQ(out.str(), std::string("SCHEDRIG\x02", 9));
  std::ostringstream v1;
  write_offline_header(v1, kOfflineVarintVersion);
  EXPECT_EQ(v1.str(), std::string("SCHEDRIG\x01", 9));
}

TEST(OfflineFile, HeaderAndRecordsRoundTrip) {
  v1::Envelope env;
  env.set_protocol_version(kProtocolVersion);
  env.set_agent_id("box");
  env.set_seq(7);
  env.mutable_ping()->set_sent_at_ns(123);
  const std::vector<std::string> records = {encode_envelope(env),  "",
                                            std::string(1, '\0'),  std::string(127, 'a'),
                                            std::string(128, 'b'), std::string(70000, 'c')};

  std::stringstream file;
  write_offline_header(file);
  for (const auto& r : records) write_offline_record(file, r);

  ASSERT_EQ(read_offline_header(file), 2);
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto got = read_offline_record(file, 2);
    ASSERT_TRUE(got.has_value()) << "record " << i;
    EXPECT_EQ(got->payload, records[i]) << "record " << i;
    EXPECT_EQ(got->file_bytes, 8 + records[i].size()) << "record " << i;
  }
  EXPECT_FALSE(read_offline_record(file, 2).has_value());
  EXPECT_FALSE(read_offline_record(file, 2).has_value());  // stays at EOF

  file.clear();
  file.seekg(0);
  OfflineReader reader(file);
  auto first = reader.next();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(reader.index(), 1u);
  EXPECT_EQ(reader.offset(), 9u);
  DecodeResult d = decode_envelope(*first);
  ASSERT_TRUE(d.envelope.has_value()) << d.error;
  EXPECT_EQ(d.envelope->agent_id(), "box");
  EXPECT_EQ(d.envelope->seq(), 7u);
  EXPECT_EQ(d.envelope->ping().sent_at_ns(), 123);
}

TEST(OfflineFile, RecordIsTheCheckedFrame) {
  const std::string payload(300, 'x');
  std::ostringstream out;
  write_offline_record(out, payload);
  EXPECT_EQ(out.str(), record::framed_record(payload));
  EXPECT_EQ(out.str().substr(0, 4), std::string("\x2C\x01\x00\x00", 4));  // 300, little-endian
  EXPECT_EQ(out.str().size(), 308u);
}

// A version 1 file: varint lengths, no CRC.
std::string varint_file(const std::vector<std::string>& records) {
  std::ostringstream out;
  write_offline_header(out, kOfflineVarintVersion);
  for (const auto& r : records) {
    write_varint(out, r.size());
    out << r;
  }
  return out.str();
}

TEST(OfflineFile, VersionOneRecordsStillRead) {
  std::stringstream file(varint_file({"abc", std::string(200, 'z')}));
  OfflineReader reader(file);
  EXPECT_EQ(reader.version(), 1);
  EXPECT_FALSE(reader.checksummed());
  EXPECT_EQ(reader.next(), "abc");
  EXPECT_EQ(reader.offset(), 9u);
  EXPECT_EQ(reader.next(), std::string(200, 'z'));
  EXPECT_EQ(reader.index(), 2u);
  EXPECT_EQ(reader.offset(), 9u + 1 + 3);  // a one-byte varint, then "abc"
  EXPECT_EQ(reader.next(), std::nullopt);
  EXPECT_EQ(reader.index(), 2u);
}

TEST(OfflineFile, ReaderNamesTheBadRecordAndItsOffset) {
  std::ostringstream out;
  write_offline_header(out);
  write_offline_record(out, "first");
  write_offline_record(out, "second");
  std::string bytes = out.str();
  bytes[9 + 13 + 8 + 2] ^= 0x04;  // inside "second"
  std::stringstream file(bytes);
  OfflineReader reader(file);
  EXPECT_TRUE(reader.checksummed());
  EXPECT_EQ(reader.next(), "first");
  try {
    reader.next();
    ADD_FAILURE() << "a flipped bit was read as good";
  } catch (const OfflineFileError& e) {
    EXPECT_EQ(e.record(), 2u);
    EXPECT_EQ(e.offset(), 22u);
    EXPECT_STREQ(e.what(),
                 "record 2 at byte 22: bad CRC-32C over the record's 6 bytes (it is damaged)");
  }
}

TEST(OfflineFile, ReaderRefusesABadHeaderAsRecordZero) {
  std::stringstream file("SCHEDRIX\x02");
  try {
    OfflineReader reader(file);
    ADD_FAILURE() << "a bad magic was accepted";
  } catch (const OfflineFileError& e) {
    EXPECT_EQ(e.record(), 0u);
    EXPECT_STREQ(e.what(), "header: missing SCHEDRIG magic (not a schedrig file)");
  }
}

TEST(OfflineFile, VarintEncodings) {
  EXPECT_EQ(varint_bytes(0), std::string(1, '\0'));
  EXPECT_EQ(varint_bytes(1), "\x01");
  EXPECT_EQ(varint_bytes(127), "\x7F");
  EXPECT_EQ(varint_bytes(128), "\x80\x01");
  EXPECT_EQ(varint_bytes(16383), "\xFF\x7F");
  EXPECT_EQ(varint_bytes(16384), "\x80\x80\x01");
  EXPECT_EQ(varint_bytes(std::uint64_t{1} << 63), "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01");
  EXPECT_EQ(varint_bytes(std::numeric_limits<std::uint64_t>::max()),
            "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01");
}

TEST(OfflineFile, VarintRoundTripsEdgeValues) {
  const std::vector<std::uint64_t> values = {0,
                                             1,
                                             127,
                                             128,
                                             255,
                                             16383,
                                             16384,
                                             (std::uint64_t{1} << 32) - 1,
                                             std::uint64_t{1} << 32,
                                             (std::uint64_t{1} << 63) - 1,
                                             std::uint64_t{1} << 63,
                                             std::numeric_limits<std::uint64_t>::max()};
  std::stringstream s;
  for (auto v : values) write_varint(s, v);
  for (auto v : values) {
    auto got = read_varint(s);
    ASSERT_TRUE(got.has_value()) << v;
    EXPECT_EQ(*got, v);
  }
  EXPECT_EQ(read_varint(s), std::nullopt);
}

TEST(OfflineFile, CleanEofIsNullopt) {
  std::stringstream empty;
  EXPECT_EQ(read_varint(empty), std::nullopt);
  for (std::uint8_t version : {kOfflineVarintVersion, kOfflineFormatVersion}) {
    std::stringstream header_only;
    write_offline_header(header_only, version);
    EXPECT_EQ(read_offline_header(header_only), version);
    EXPECT_FALSE(read_offline_record(header_only, version).has_value());
  }
}

TEST(OfflineFile, TruncatedVarintThrows) {
  std::stringstream s(std::string("\x80\x80", 2));
  std::string what = error_of([&] { read_varint(s); });
  EXPECT_NE(what.find("truncated varint"), std::string::npos) << what;

  std::stringstream rec(std::string("\x81", 1));
  what = error_of([&] { read_offline_record(rec, 1); });
  EXPECT_NE(what.find("truncated varint"), std::string::npos) << what;
}

TEST(OfflineFile, OverLongVarintThrows) {
  std::stringstream s(std::string(11, '\x80') + "\x01");
  std::string what = error_of([&] { read_varint(s); });
  EXPECT_NE(what.find("longer than 10 bytes"), std::string::npos) << what;
}

TEST(OfflineFile, TruncatedVersionOneRecordThrows) {
  std::stringstream in(std::string("\x0A", 1) + "012");  // 3 of 10 bytes
  std::string what = error_of([&] { read_offline_record(in, 1); });
  EXPECT_NE(what.find("truncated record (3 of 10 bytes)"), std::string::npos) << what;
}

TEST(OfflineFile, EveryTruncationOfACheckedRecordThrows) {
  const std::string whole = offline_record("0123456789");
  for (std::size_t size = 1; size < whole.size(); ++size) {
    std::stringstream in(whole.substr(0, size));
    std::string what = error_of([&] { read_offline_record(in, 2); });
    EXPECT_EQ(what, "truncated record (the file ends inside it)") << size;
  }
}

TEST(OfflineFile, WrongMagicThrows) {
  std::stringstream s(std::string("SCHEDRIX\x02", 9));
  std::string what = error_of([&] { read_offline_header(s); });
  EXPECT_NE(what.find("SCHEDRIG magic"), std::string::npos) << what;

  std::stringstream short_file("SCHED");
  what = error_of([&] { read_offline_header(short_file); });
  EXPECT_NE(what.find("SCHEDRIG magic"), std::string::npos) << what;

  std::stringstream empty;
  what = error_of([&] { read_offline_header(empty); });
  EXPECT_NE(what.find("magic"), std::string::npos) << what;
}

TEST(OfflineFile, WrongVersionThrows) {
  for (char v : {'\x00', '\x03', '\x06'}) {
    std::stringstream s(std::string("SCHEDRIG", 8) + v);
    std::string what = error_of([&] { read_offline_header(s); });
    EXPECT_NE(what.find(fmt::format("version {} is not", int{v})), std::string::npos) << what;
    EXPECT_NE(what.find("want 1 or 2"), std::string::npos) << what;
  }
  std::stringstream missing("SCHEDRIG");
  std::string what = error_of([&] { read_offline_header(missing); });
  EXPECT_NE(what.find("version"), std::string::npos) << what;
}

TEST(OfflineFile, OversizeLengthThrows) {
  for (std::uint64_t len :
       {std::uint64_t{kMaxEnvelopeBytes} + 1, std::numeric_limits<std::uint64_t>::max()}) {
    std::stringstream s;
    write_varint(s, len);
    s << "abc";
    std::string what = error_of([&] { read_offline_record(s, 1); });
    EXPECT_NE(what.find(std::to_string(len)), std::string::npos) << what;
    EXPECT_NE(what.find("limit"), std::string::npos) << what;
  }
  std::string frame = offline_record("abc");
  frame[2] = '\x7f';  // length 0x7f0003: over 4 MiB (the CRC is not reached)
  std::stringstream s(frame);
  std::string what = error_of([&] { read_offline_record(s, 2); });
  EXPECT_NE(what.find("record of 8323075 bytes is over the 4194304-byte limit"), std::string::npos)
      << what;
}

TEST(OfflineFile, RecordAtLimitIsAccepted) {
  for (std::uint8_t version : {kOfflineVarintVersion, kOfflineFormatVersion}) {
    std::stringstream s;
    const std::string big(kMaxEnvelopeBytes, 'q');
    if (version == 1) {
      write_varint(s, big.size());
      s << big;
    } else {
      write_offline_record(s, big);
    }
    auto got = read_offline_record(s, version);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->payload.size(), kMaxEnvelopeBytes);
  }
}

}  // namespace
}  // namespace schedrig
