// ride_server_outage (host/client/server_outage.h): `run --wait` and
// `watch --server` ride over a restart of serve instead of exiting 3.
#include "host/client/server_outage.h"

#include <sstream>

#include <gtest/gtest.h>

#include "common/error.h"

namespace schedrig::client {
namespace {

using namespace std::chrono_literals;

OutagePolicy fast() { return OutagePolicy{10ms, 20ms, 2s}; }

TEST(ServerOutage, AnUnreachableServerIsRetriedUntilItAnswersSayingSoOnce) {
  int calls = 0;
  std::ostringstream log;
  ride_server_outage(
      [&] {
        if (++calls < 4) {
          throw Error(ErrorKind::kUnreachable, "lost the connection to server http://h:1: eof");
        }
      },
      log, fast());
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(log.str(),
            "lost the connection to server http://h:1: eof; retrying for up to 2 s (the run goes "
            "on on its agent)\nserver is back\n");
}

TEST(ServerOutage, OtherErrorsAndAnAnsweringServerPassStraightThrough) {
  std::ostringstream log;
  int calls = 0;
  ride_server_outage([&] { ++calls; }, log, fast());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(log.str(), "");
  try {
    ride_server_outage([&] { throw Error(ErrorKind::kUsage, "HTTP 401"); }, log, fast());
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  }
  EXPECT_EQ(log.str(), "");
}

TEST(ServerOutage, AServerAwayLongerThanGiveUpEndsWithItsError) {
  std::ostringstream log;
  int calls = 0;
  const OutagePolicy p{10ms, 20ms, 100ms};
  try {
    ride_server_outage(
        [&] {
          ++calls;
          throw Error(ErrorKind::kUnreachable, "cannot reach server");
        },
        log, p);
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    EXPECT_EQ(std::string(e.what()), "cannot reach server");
  }
  EXPECT_GE(calls, 4);  // 10 + 20 + 20 + 20 ms of pauses before 100 ms passed
  EXPECT_LE(calls, 12);
}

}  // namespace
}  // namespace schedrig::client
