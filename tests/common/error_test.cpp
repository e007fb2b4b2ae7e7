// ErrorKind -> exit code and log level (docs/architecture.md "Command lines").
#include "common/error.h"

#include <gtest/gtest.h>

#include "common/cli_error.h"

namespace schedrig {
namespace {

TEST(ErrorKind, MapsToTheExitCodes) {
  EXPECT_EQ(exit_code_for(ErrorKind::kFailed), 1);
  EXPECT_EQ(exit_code_for(ErrorKind::kUsage), 2);
  EXPECT_EQ(exit_code_for(ErrorKind::kUnreachable), 3);
  EXPECT_EQ(exit_code_for(ErrorKind::kInterrupted), 130);
  EXPECT_EQ(exit_code_for(ErrorKind::kPeerLimit), 1);
}

TEST(ErrorKind, MapsToALogLevel) {
  EXPECT_STREQ(log_level_for(ErrorKind::kFailed), "error");
  EXPECT_STREQ(log_level_for(ErrorKind::kPeerLimit), "warn");
  EXPECT_STREQ(log_level_for(ErrorKind::kInterrupted), "info");
}

TEST(ErrorKind, CliErrorIsAnErrorWithItsKind) {
  try {
    throw CliError(ErrorKind::kUnreachable, "peer gone");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    EXPECT_EQ(e.exit_code(), 3);
    EXPECT_STREQ(e.what(), "peer gone");
  }
}

}  // namespace
}  // namespace schedrig
