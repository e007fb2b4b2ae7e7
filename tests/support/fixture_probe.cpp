// A one-test binary for fixtures_test: needs procfs/proc_stat.txt under the
// fixture root, so the caller's $SCHEDRIG_FIXTURES and $CI decide its fate.
#include <gtest/gtest.h>

#include "tests/support/fixtures.h"

TEST(FixtureProbe, NeedsProcStat) {
  SCHEDRIG_REQUIRE_FIXTURE(schedrig::testing::fixture_path("procfs/proc_stat.txt"));
  SUCCEED() << "fixture found";
}
