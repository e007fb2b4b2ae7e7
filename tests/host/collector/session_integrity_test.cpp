// One session's integrity over real WebSockets on loopback: seqs rise
// strictly within a connection (a replay or a seq over 2^63 - 1 is refused,
// a reconnect may resend what was stored), the Hello fixes the instance and
// comes once, and a flood of bad frames logs a bounded number of lines
// (docs/architecture.md "Wire protocol", "Session rules").
#include <memory>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include "host/collector/session_rules.h"
#include "tests/host/server/test_server.h"

namespace schedrig::collector {
namespace {

using namespace schedrig::testing;
namespace v1 = schedrig::v1;

v1::Envelope log_line(std::uint64_t seq, const std::string& instance = "") {
  v1::Envelope env = stamped("box1", seq, instance);
  env.mutable_log()->set_message("line " + std::to_string(seq));
  return env;
}

// What the store does with `env` now: kStored means it held nothing of it.
store::Store::Ingest probe(store::Store& store, const v1::Envelope& env) {
  return store.ingest(env, encode_envelope(env));
}

// The default logger writes into a string while it lives.
class CapturedLog {
 public:
  CapturedLog() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out_);
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("captured", sink));
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }
  // Lines matching `pattern`.
  long count(const std::string& pattern) {
    spdlog::default_logger()->flush();
    const std::string text = out_.str();
    const std::regex re(pattern);
    return std::distance(std::sregex_iterator(text.begin(), text.end(), re),
                         std::sregex_iterator());
  }

 private:
  std::ostringstream out_;
  std::shared_ptr<spdlog::logger> previous_;
};

// box1 connected and its Hello (seq 1, "inst-box1") acked.
std::unique_ptr<AgentClient> said_hello(TestServer& server) {
  auto c = std::make_unique<AgentClient>(server.port(), kBox1Token);
  c->send(hello("box1", 1));
  EXPECT_TRUE(c->read().has_ack());
  return c;
}

// Sends `env` and reads until the host closes: it must be refused with
// ERROR_UNEXPECTED naming `why`, and a close 1008.
void expect_violation(AgentClient& c, const v1::Envelope& env, const std::string& why) {
  c.send(env);
  const AgentReplies r = c.read_until_closed();
  ASSERT_FALSE(r.envelopes.empty()) << why;
  const v1::Envelope& last = r.envelopes.back();
  ASSERT_TRUE(last.has_error()) << why;
  EXPECT_EQ(last.error().code(), v1::ERROR_UNEXPECTED) << why;
  EXPECT_NE(last.error().message().find(why), std::string::npos) << last.error().message();
  EXPECT_EQ(last.error().in_reply_to_seq(), env.seq());
  EXPECT_EQ(r.code, websocket::close_code::policy_error) << r.reason;
}

TEST(SessionSeq, AReplayWithinASessionIsRefusedAndLogged) {
  CapturedLog log;
  TestServer server;
  auto c = said_hello(server);
  c->send(log_line(2));
  ASSERT_EQ(c->read().ack().seq(), 2u);
  v1::Envelope replay = log_line(2);
  replay.mutable_log()->set_message("forged");
  expect_violation(*c, replay, "seq 2 after seq 2: seqs rise strictly within a connection");
  expect_violation(*said_hello(server), log_line(1), "seq 1 after seq 1");  // the Hello's seq
  EXPECT_EQ(log.count("127\\.0\\.0\\.1:[0-9]+ \\(agent box1\\): refused: seq 2 after seq 2[^\n]*"
                      "closing with 1008"),
            1);
}

TEST(SessionSeq, ASeqOverTwoToTheSixtyThreeIsRefusedAndNotStored) {
  TestServer server;
  auto c = said_hello(server);
  expect_violation(*c, log_line(kMaxSeq + 1), "seq 9223372036854775808 is over 2^63 - 1");
  // What would have been stored as -1 was not; the largest seq is still new.
  EXPECT_EQ(probe(server.store, log_line(kMaxSeq)), store::Store::Ingest::kStored);
}

TEST(SessionSeq, ANewSessionMayResendStoredSeqs) {
  TestServer server;
  {
    auto first = said_hello(server);
    first->send(log_line(2));
    ASSERT_EQ(first->read().ack().seq(), 2u);
    first->ws().close(websocket::close_code::normal);
  }
  // A reconnect of the same instance replays its spool: acked, stored once.
  auto again = said_hello(server);
  again->send(log_line(2));
  EXPECT_EQ(again->read().ack().seq(), 2u);
  again->send(log_line(3));
  EXPECT_EQ(again->read().ack().seq(), 3u);
  EXPECT_EQ(probe(server.store, log_line(2)), store::Store::Ingest::kDuplicate);
  EXPECT_EQ(probe(server.store, log_line(3)), store::Store::Ingest::kDuplicate);
}

TEST(SessionInstance, AnotherInstanceMidSessionIsRefused) {
  TestServer server;
  auto c = said_hello(server);
  expect_violation(*c, log_line(2, "inst-other"),
                   "instance_id 'inst-other' is not this connection's ('inst-box1'");
  EXPECT_EQ(probe(server.store, log_line(2, "inst-other")), store::Store::Ingest::kStored);
}

TEST(SessionInstance, ASecondHelloIsRefusedAndTheFirstInstanceKept) {
  TestServer server;
  auto c = said_hello(server);
  v1::Envelope other = hello("box1", 2, "inst-other");
  other.mutable_hello()->set_hostname("other.lab");
  expect_violation(*c, other, "a second Hello (seq 2): one Hello per connection");
  ASSERT_EQ(server.store.agents().size(), 1u);
  EXPECT_EQ(server.store.agents().front().instance_id, "inst-box1");
  EXPECT_EQ(server.store.agents().front().hostname, "box1.lab");
  // The same instance's Hello again is refused too.
  expect_violation(*said_hello(server), hello("box1", 2), "a second Hello");
}

TEST(SessionLog, AFloodOfBadFramesLogsABoundedNumberOfLines) {
  CapturedLog log;
  TestServer server;
  AgentClient c(server.port(), kBox1Token);
  constexpr int kFrames = 1000;
  for (int i = 0; i < kFrames; ++i) {
    if (i % 2 == 0) {
      c.send_bytes(std::string("\xff\xff\xff\xff garbage", 12));
    } else {
      v1::Envelope ack = stamped("box1", static_cast<std::uint64_t>(i));
      ack.mutable_ack()->set_seq(1);
      c.send(ack);  // a host->agent body: answered, the session goes on
    }
  }
  for (int i = 0; i < kFrames; ++i) ASSERT_TRUE(c.read().has_error()) << i;  // each answered
  c.send(hello("box1", 1));
  EXPECT_TRUE(c.read().has_ack());
  // One line per 5 s: the first, naming the peer (a slow box may reach a second).
  const long lines = log.count("[^\n]*(bad message|host->agent message)[^\n]*\n");
  EXPECT_GE(lines, 1);
  EXPECT_LE(lines, 2);
  EXPECT_EQ(log.count("127\\.0\\.0\\.1:[0-9]+ \\(agent box1\\): bad message \\(12 bytes\\)"), 1);
}

}  // namespace
}  // namespace schedrig::collector
