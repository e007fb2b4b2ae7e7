// The offline run's progress lines: the plan's strings (its name, a Log's
// message) are escaped (common/printable.h), so a plan cannot retitle the
// operator's terminal or forge a line.
#include "agent/session/file_sink.h"

#include <sstream>

#include <gtest/gtest.h>

namespace schedrig::agent {
namespace {

namespace v1 = schedrig::v1;

TEST(FileSink, ProgressEscapesThePlanNameAndLogMessages) {
  std::ostringstream progress;
  FileSink sink("", AgentIdentity{"box", "boot", "inst"}, progress);
  v1::RunStarted started;
  started.set_run_id("r1");
  started.mutable_plan()->set_name("p\x1b]0;pwn\x07");
  started.set_planned_iterations(2);
  sink.run_started(started);
  v1::Log log;
  log.set_run_id("r1");
  log.set_message("waiting\nrun r1: forged");
  sink.log(log);
  EXPECT_EQ(progress.str(),
            "run r1 starts: plan 'p\\e]0;pwn\\x07', 2 iterations\n"
            "run r1: waiting\\nrun r1: forged\n");
}

}  // namespace
}  // namespace schedrig::agent
