// The reconnect schedule: equal jitter under a doubling ceiling from 100 ms,
// capped at 30 s, back to the start after reset().
#include "agent/link/backoff.h"

#include <set>

#include <gtest/gtest.h>

namespace schedrig::link {
namespace {

using std::chrono::milliseconds;

TEST(Backoff, EachDelayLiesInTheUpperHalfOfADoublingCeiling) {
  Backoff b(BackoffPolicy{}, 42);
  const long ceilings[] = {100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000};
  for (const long c : ceilings) {
    EXPECT_EQ(b.ceiling(), milliseconds(c));
    const milliseconds d = b.next();
    EXPECT_GE(d, milliseconds(c / 2)) << "ceiling " << c;
    EXPECT_LE(d, milliseconds(c)) << "ceiling " << c;
  }
  for (int i = 0; i < 100; ++i) EXPECT_LE(b.next(), milliseconds(30000));
}

TEST(Backoff, JitterSpreadsAgentsThatLostTheSameHost) {
  std::set<long> firsts;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    Backoff b(BackoffPolicy{}, seed);
    for (int i = 0; i < 6; ++i) b.next();  // ceiling 6.4 s
    firsts.insert(b.next().count());
  }
  EXPECT_GT(firsts.size(), 15u);  // 20 agents, 3201 possible delays
  EXPECT_GE(*firsts.begin(), 3200);
  EXPECT_LE(*firsts.rbegin(), 6400);
}

TEST(Backoff, ResetStartsAgainFromTheFirstCeiling) {
  Backoff b(BackoffPolicy{milliseconds(50), milliseconds(400), milliseconds(1000)}, 7);
  for (int i = 0; i < 10; ++i) b.next();
  EXPECT_EQ(b.ceiling(), milliseconds(400));  // the cap
  b.reset();
  EXPECT_EQ(b.ceiling(), milliseconds(50));
  EXPECT_LE(b.next(), milliseconds(50));
  EXPECT_EQ(b.ceiling(), milliseconds(100));
}

}  // namespace
}  // namespace schedrig::link
