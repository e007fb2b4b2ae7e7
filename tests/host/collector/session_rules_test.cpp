// The session rules without a network (docs/architecture.md "Server").
#include "host/collector/session_rules.h"

#include <gtest/gtest.h>

#include "tests/host/server/test_server.h"

namespace schedrig::collector {
namespace {

using Verdict = EnvelopeCheck::Verdict;
using schedrig::testing::hello;
using schedrig::testing::stamped;
namespace v1 = schedrig::v1;

TEST(SessionRules, HelloOfItsOwnIdIsStored) {
  EXPECT_EQ(check_envelope(hello("box1", 1), "box1", false).verdict, Verdict::kStore);
  EXPECT_EQ(check_envelope(hello("box1", 2), "box1", true).verdict, Verdict::kStore);
}

TEST(SessionRules, AnotherIdIsAViolation) {
  const EnvelopeCheck c = check_envelope(hello("box2", 1), "box1", true);
  EXPECT_EQ(c.verdict, Verdict::kViolation);
  EXPECT_EQ(c.code, v1::ERROR_NOT_OWNER);
  EXPECT_EQ(c.message, "agent_id 'box2' is not the id this token speaks for ('box1')");
}

TEST(SessionRules, AnythingBeforeHelloIsAViolation) {
  v1::Envelope result = stamped("box1", 1);
  result.mutable_iteration_result()->set_run_id("r");
  const EnvelopeCheck c = check_envelope(result, "box1", false);
  EXPECT_EQ(c.verdict, Verdict::kViolation);
  EXPECT_EQ(c.code, v1::ERROR_UNEXPECTED);
  EXPECT_EQ(check_envelope(result, "box1", true).verdict, Verdict::kStore);
}

TEST(SessionRules, HostBodiesAndMissingIdsAreAnsweredNotClosed) {
  v1::Envelope ack = stamped("box1", 1);
  ack.mutable_ack()->set_seq(1);
  EXPECT_EQ(check_envelope(ack, "box1", true).verdict, Verdict::kReplyError);
  EXPECT_EQ(check_envelope(ack, "box1", true).message, "ack is a host->agent message");
  v1::Envelope no_seq = hello("box1", 0);
  EXPECT_EQ(check_envelope(no_seq, "box1", false).verdict, Verdict::kReplyError);
  v1::Envelope no_instance = hello("box1", 1);
  no_instance.clear_instance_id();
  EXPECT_EQ(check_envelope(no_instance, "box1", false).code, v1::ERROR_UNEXPECTED);
}

}  // namespace
}  // namespace schedrig::collector
