// Offline envelope files: magic, version, varint-framed records.
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/envelope_codec.h"
#include "common/offline_file.h"

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
  EXPECT_EQ(out.str(), std::string("SCHEDRIG\x01", 9));
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

  read_offline_header(file);
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto got = read_offline_record(file);
    ASSERT_TRUE(got.has_value()) << "record " << i;
    EXPECT_EQ(*got, records[i]) << "record " << i;
  }
  EXPECT_EQ(read_offline_record(file), std::nullopt);
  EXPECT_EQ(read_offline_record(file), std::nullopt);  // stays at EOF

  file.clear();
  file.seekg(0);
  read_offline_header(file);
  auto first = read_offline_record(file);
  ASSERT_TRUE(first.has_value());
  DecodeResult d = decode_envelope(*first);
  ASSERT_TRUE(d.envelope.has_value()) << d.error;
  EXPECT_EQ(d.envelope->agent_id(), "box");
  EXPECT_EQ(d.envelope->seq(), 7u);
  EXPECT_EQ(d.envelope->ping().sent_at_ns(), 123);
}

TEST(OfflineFile, RecordIsLengthThenBytes) {
  std::ostringstream out;
  write_offline_record(out, std::string(300, 'x'));
  EXPECT_EQ(out.str().substr(0, 2), "\xAC\x02");  // 300 = 0b10'0101100
  EXPECT_EQ(out.str().size(), 302u);
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
  std::stringstream header_only;
  write_offline_header(header_only);
  read_offline_header(header_only);
  EXPECT_EQ(read_offline_record(header_only), std::nullopt);
}

TEST(OfflineFile, TruncatedVarintThrows) {
  std::stringstream s(std::string("\x80\x80", 2));
  std::string what = error_of([&] { read_varint(s); });
  EXPECT_NE(what.find("truncated varint"), std::string::npos) << what;

  std::stringstream rec(std::string("\x81", 1));
  what = error_of([&] { read_offline_record(rec); });
  EXPECT_NE(what.find("truncated varint"), std::string::npos) << what;
}

TEST(OfflineFile, OverLongVarintThrows) {
  std::stringstream s(std::string(11, '\x80') + "\x01");
  std::string what = error_of([&] { read_varint(s); });
  EXPECT_NE(what.find("longer than 10 bytes"), std::string::npos) << what;
}

TEST(OfflineFile, TruncatedRecordThrows) {
  std::stringstream s;
  write_offline_record(s, "0123456789");
  std::string cut = s.str().substr(0, 1 + 3);  // length byte + 3 of 10 bytes
  std::stringstream in(cut);
  std::string what = error_of([&] { read_offline_record(in); });
  EXPECT_NE(what.find("truncated record"), std::string::npos) << what;
  EXPECT_NE(what.find("3 of 10"), std::string::npos) << what;

  std::stringstream no_body(std::string("\x05", 1));
  what = error_of([&] { read_offline_record(no_body); });
  EXPECT_NE(what.find("0 of 5"), std::string::npos) << what;
}

TEST(OfflineFile, WrongMagicThrows) {
  std::stringstream s(std::string("SCHEDRIX\x01", 9));
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
  std::stringstream s(std::string("SCHEDRIG\x02", 9));
  std::string what = error_of([&] { read_offline_header(s); });
  EXPECT_NE(what.find("version 2"), std::string::npos) << what;
  EXPECT_NE(what.find("want 1"), std::string::npos) << what;

  std::stringstream missing("SCHEDRIG");
  what = error_of([&] { read_offline_header(missing); });
  EXPECT_NE(what.find("version"), std::string::npos) << what;
}

TEST(OfflineFile, OversizeLengthThrows) {
  for (std::uint64_t len :
       {std::uint64_t{kMaxEnvelopeBytes} + 1, std::numeric_limits<std::uint64_t>::max()}) {
    std::stringstream s;
    write_varint(s, len);
    s << "abc";
    std::string what = error_of([&] { read_offline_record(s); });
    EXPECT_NE(what.find(std::to_string(len)), std::string::npos) << what;
    EXPECT_NE(what.find("limit"), std::string::npos) << what;
  }
}

TEST(OfflineFile, RecordAtLimitIsAccepted) {
  std::stringstream s;
  write_offline_record(s, std::string(kMaxEnvelopeBytes, 'q'));
  auto got = read_offline_record(s);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->size(), kMaxEnvelopeBytes);
}

}  // namespace
}  // namespace schedrig
