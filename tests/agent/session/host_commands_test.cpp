// What the agent does with each host command, without a socket: StartRun
// runs (once per run_id), Error/Abort/Ping need no answer, anything else is answered with an
// ERROR_UNEXPECTED Error naming the body.
#include "agent/session/host_commands.h"

#include <gtest/gtest.h>

namespace schedrig::agent {
namespace {

namespace v1 = schedrig::v1;

// Records what handle_command asked for.
struct Recorder {
  std::vector<std::string> runs;  // run ids
  std::vector<v1::Envelope> sent;
  SeenRuns seen;
  CommandHandlers handlers() {
    return {[this](const v1::StartRun& s) { runs.push_back(s.run_id()); },
            [this](v1::Envelope env) { sent.push_back(std::move(env)); }};
  }
};

TEST(HostCommands, StartRunRunsThePlanAndSendsNothingItself) {
  Recorder r;
  v1::Envelope cmd;
  cmd.mutable_start_run()->set_run_id("run-1");
  cmd.mutable_start_run()->mutable_plan()->set_name("p");
  handle_command(cmd, r.handlers(), r.seen);
  EXPECT_EQ(r.runs, std::vector<std::string>{"run-1"});
  EXPECT_TRUE(r.sent.empty());
}

// The host resends StartRun after a reconnect when it has no RunStarted yet
// (or the agent restarted and reported the run): each run_id runs once.
TEST(HostCommands, AStartRunForARunAlreadySeenIsIgnored) {
  Recorder r;
  ASSERT_TRUE(r.seen.first("run-0"));  // e.g. the run the restart report named
  for (const char* id : {"run-1", "run-0", "run-1", "run-2"}) {
    v1::Envelope cmd;
    cmd.mutable_start_run()->set_run_id(id);
    handle_command(cmd, r.handlers(), r.seen);
  }
  EXPECT_EQ(r.runs, (std::vector<std::string>{"run-1", "run-2"}));
  EXPECT_TRUE(r.sent.empty());
}

TEST(HostCommands, ErrorAbortAndPingNeedNoAnswer) {
  Recorder r;
  v1::Envelope error, abort, ping;
  error.mutable_error()->set_message("bad seq");
  abort.mutable_abort();
  ping.mutable_ping();
  for (const auto* cmd : {&error, &abort, &ping}) handle_command(*cmd, r.handlers(), r.seen);
  EXPECT_TRUE(r.runs.empty());
  EXPECT_TRUE(r.sent.empty());
}

TEST(HostCommands, AnythingElseIsAnsweredUnexpectedNamingTheBody) {
  Recorder r;
  v1::Envelope hello;
  hello.mutable_hello()->set_hostname("host");
  handle_command(hello, r.handlers(), r.seen);
  EXPECT_TRUE(r.runs.empty());
  ASSERT_EQ(r.sent.size(), 1u);
  ASSERT_TRUE(r.sent[0].has_error());
  EXPECT_EQ(r.sent[0].error().code(), v1::ERROR_UNEXPECTED);
  EXPECT_EQ(r.sent[0].error().message(), "agent does not take 'hello' messages");
  EXPECT_EQ(r.sent[0].error().run_id(), "");
}

TEST(HostCommands, ErrorEnvelopeCarriesCodeMessageAndRun) {
  v1::Envelope env = error_envelope(v1::ERROR_FACILITY_UNAVAILABLE, "no debugfs", "run-7");
  ASSERT_TRUE(env.has_error());
  EXPECT_EQ(env.error().code(), v1::ERROR_FACILITY_UNAVAILABLE);
  EXPECT_EQ(env.error().message(), "no debugfs");
  EXPECT_EQ(env.error().run_id(), "run-7");
}

}  // namespace
}  // namespace schedrig::agent
