// The session rules without a network (docs/architecture.md "Wire
// protocol", "Session rules").
#include "host/collector/session_rules.h"
#include "host/collector/log_budget.h"

#include <gtest/gtest.h>

#include "tests/host/server/test_server.h"

namespace schedrig::collector {
namespace {

using Verdict = EnvelopeCheck::Verdict;
using schedrig::testing::hello;
using schedrig::testing::stamped;
namespace v1 = schedrig::v1;

// A ledger after box1's Hello (instance "inst-box1") at `seq`.
SessionLedger after_hello(std::uint64_t seq) {
  SessionLedger ledger;
  ledger.take(hello("box1", seq));
  return ledger;
}

v1::Envelope log_line(std::uint64_t seq, const std::string& instance = "") {
  v1::Envelope env = stamped("box1", seq, instance);
  env.mutable_log()->set_message("line");
  return env;
}

TEST(SessionRules, HelloOfItsOwnIdIsStored) {
  EXPECT_EQ(check_envelope(hello("box1", 1), "box1", {}).verdict, Verdict::kStore);
  EXPECT_EQ(check_envelope(hello("box1", 7), "box1", {}).verdict, Verdict::kStore);
}

TEST(SessionRules, TheLedgerTakesTheHellosInstanceAndEachSeq) {
  SessionLedger ledger = after_hello(3);
  EXPECT_TRUE(ledger.hello_accepted());
  EXPECT_EQ(ledger.instance_id, "inst-box1");
  EXPECT_EQ(ledger.last_seq, 3u);
  ledger.take(log_line(9));
  EXPECT_EQ(ledger.instance_id, "inst-box1");
  EXPECT_EQ(ledger.last_seq, 9u);
  EXPECT_FALSE(SessionLedger{}.hello_accepted());
}

// An agent's kernels: table holds at most 64; a Hello listing more is not
// believed (docs/nightly.md "Boot hooks").
TEST(SessionRules, AHelloListingMoreThan64KernelsIsAViolation) {
  v1::Envelope h = hello("box1", 1);
  for (int i = 0; i < 64; ++i) h.mutable_hello()->add_kernels()->set_name("k" + std::to_string(i));
  EXPECT_EQ(check_envelope(h, "box1", {}).verdict, Verdict::kStore);
  h.mutable_hello()->add_kernels()->set_name("k64");
  const EnvelopeCheck c = check_envelope(h, "box1", {});
  EXPECT_EQ(c.verdict, Verdict::kViolation);
  EXPECT_EQ(c.message, "Hello lists 65 kernels: at most 64");
}

TEST(SessionRules, AnotherIdIsAViolation) {
  const EnvelopeCheck c = check_envelope(hello("box2", 1), "box1", after_hello(1));
  EXPECT_EQ(c.verdict, Verdict::kViolation);
  EXPECT_EQ(c.code, v1::ERROR_NOT_OWNER);
  EXPECT_EQ(c.message, "agent_id 'box2' is not the id this token speaks for ('box1')");
}

TEST(SessionRules, AnythingBeforeHelloIsAViolation) {
  v1::Envelope result = stamped("box1", 2);
  result.mutable_iteration_result()->set_run_id("r");
  const EnvelopeCheck c = check_envelope(result, "box1", {});
  EXPECT_EQ(c.verdict, Verdict::kViolation);
  EXPECT_EQ(c.code, v1::ERROR_UNEXPECTED);
  EXPECT_EQ(c.message, "iteration_result before Hello: Hello comes first on every connection");
  EXPECT_EQ(check_envelope(result, "box1", after_hello(1)).verdict, Verdict::kStore);
}

TEST(SessionRules, ASecondHelloIsAViolation) {
  for (const char* instance : {"inst-box1", "inst-other"}) {
    const EnvelopeCheck c = check_envelope(hello("box1", 2, instance), "box1", after_hello(1));
    EXPECT_EQ(c.verdict, Verdict::kViolation) << instance;
    EXPECT_EQ(c.code, v1::ERROR_UNEXPECTED) << instance;
    EXPECT_EQ(c.message,
              "a second Hello (seq 2): one Hello per connection, reconnect to send another")
        << instance;
  }
}

TEST(SessionRules, AnotherInstanceMidSessionIsAViolation) {
  const EnvelopeCheck c = check_envelope(log_line(2, "inst-other"), "box1", after_hello(1));
  EXPECT_EQ(c.verdict, Verdict::kViolation);
  EXPECT_EQ(c.code, v1::ERROR_UNEXPECTED);
  EXPECT_EQ(c.message,
            "instance_id 'inst-other' is not this connection's ('inst-box1', from its "
            "Hello)");
}

TEST(SessionRules, SeqsRiseStrictly) {
  const SessionLedger ledger = after_hello(5);
  for (std::uint64_t seq : {1u, 4u, 5u}) {
    const EnvelopeCheck c = check_envelope(log_line(seq), "box1", ledger);
    EXPECT_EQ(c.verdict, Verdict::kViolation) << seq;
    EXPECT_EQ(c.code, v1::ERROR_UNEXPECTED) << seq;
    EXPECT_EQ(c.message, "seq " + std::to_string(seq) +
                             " after seq 5: seqs rise strictly within a connection");
  }
  EXPECT_EQ(check_envelope(log_line(6), "box1", ledger).verdict, Verdict::kStore);
  EXPECT_EQ(check_envelope(log_line(1000), "box1", ledger).verdict, Verdict::kStore);  // gaps ok
}

TEST(SessionRules, ASeqOverTwoToTheSixtyThreeIsAViolation) {
  EXPECT_EQ(check_envelope(log_line(kMaxSeq), "box1", after_hello(1)).verdict, Verdict::kStore);
  const EnvelopeCheck c = check_envelope(log_line(kMaxSeq + 1), "box1", after_hello(1));
  EXPECT_EQ(c.verdict, Verdict::kViolation);
  EXPECT_EQ(c.code, v1::ERROR_UNEXPECTED);
  EXPECT_EQ(c.message, "seq 9223372036854775808 is over 2^63 - 1");
  EXPECT_EQ(check_envelope(hello("box1", kMaxSeq + 1), "box1", {}).verdict, Verdict::kViolation);
}

TEST(SessionRules, HostBodiesAndMissingIdsAreAnsweredNotClosed) {
  v1::Envelope ack = stamped("box1", 1);
  ack.mutable_ack()->set_seq(1);
  EXPECT_EQ(check_envelope(ack, "box1", after_hello(1)).verdict, Verdict::kReplyError);
  EXPECT_EQ(check_envelope(ack, "box1", after_hello(1)).message, "ack is a host->agent message");
  v1::Envelope no_seq = hello("box1", 0);
  EXPECT_EQ(check_envelope(no_seq, "box1", {}).verdict, Verdict::kReplyError);
  v1::Envelope no_instance = hello("box1", 1);
  no_instance.clear_instance_id();
  EXPECT_EQ(check_envelope(no_instance, "box1", {}).code, v1::ERROR_UNEXPECTED);
}

TEST(RunlessLogBudget, HundredAMinuteThenDropsAndCounts) {
  RunlessLogBudget budget;
  const auto t0 = RunlessLogBudget::Clock::time_point{} + std::chrono::hours(1);
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(budget.take(t0 + std::chrono::milliseconds(i))) << i;
  EXPECT_FALSE(budget.take(t0 + std::chrono::seconds(59)));
  EXPECT_FALSE(budget.take(t0 + std::chrono::seconds(59)));
  EXPECT_EQ(budget.dropped(), 2u);
  EXPECT_TRUE(budget.take(t0 + std::chrono::seconds(60)));  // a new window
  EXPECT_EQ(budget.dropped(), 2u);
}

}  // namespace
}  // namespace schedrig::collector
