#include "host/control/api_target.h"

#include <gtest/gtest.h>

#include "host/control/api_error.h"

namespace schedrig::control {
namespace {

using Segments = std::vector<std::string>;

TEST(ApiTarget, SplitsPathAndQuery) {
  auto t = parse_api_target("/api/v1/runs/ab%2Fc/events?after=5&wait_s=10&x=a+b");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->segments, (Segments{"runs", "ab/c", "events"}));
  EXPECT_EQ(t->query.at("after"), "5");
  EXPECT_EQ(t->query.at("wait_s"), "10");
  EXPECT_EQ(t->query.at("x"), "a b");
  EXPECT_EQ(parse_api_target("/api/v1/agents")->segments, Segments{"agents"});
}

TEST(ApiTarget, RefusesOtherPathsAndBadEscapes) {
  EXPECT_FALSE(parse_api_target("/api/v2/agents"));
  EXPECT_FALSE(parse_api_target("/agent"));
  EXPECT_FALSE(parse_api_target("/api/v1/runs//abort"));
  EXPECT_FALSE(parse_api_target("/api/v1/runs/%zz"));
  EXPECT_FALSE(parse_api_target("/api/v1/runs/%4"));
}

TEST(ApiTarget, QueryIntIsWholeAndInRange) {
  auto t = *parse_api_target("/api/v1/runs/x/events?after=42&wait_s=99&bad=4x");
  EXPECT_EQ(query_int(t, "after", 0, 0, 100), 42);
  EXPECT_EQ(query_int(t, "missing", 7, 0, 100), 7);
  EXPECT_THROW(query_int(t, "wait_s", 25, 0, 60), ApiError);
  try {
    query_int(t, "bad", 0, 0, 10);
    FAIL();
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 400u);
    EXPECT_STREQ(e.what(), "bad=4x: want an integer in 0..10");
  }
}

}  // namespace
}  // namespace schedrig::control
