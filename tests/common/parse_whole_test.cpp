// parse_whole / try_parse_whole: whole-string numbers only, errors name the value.
#include "common/parse_whole.h"

#include <cstdint>

#include <gtest/gtest.h>

namespace schedrig {
namespace {

TEST(ParseWhole, TakesAWholeNumber) {
  EXPECT_EQ(try_parse_whole<int>("42"), 42);
  EXPECT_EQ(try_parse_whole<int>("-7"), -7);
  EXPECT_DOUBLE_EQ(*try_parse_whole<double>("2.5"), 2.5);
  EXPECT_EQ(parse_whole<std::uint16_t>("65535", "port"), 65535);
}

TEST(ParseWhole, RefusesTrailingLeadingAndEmpty) {
  EXPECT_FALSE(try_parse_whole<int>("42x"));
  EXPECT_FALSE(try_parse_whole<int>(" 42"));
  EXPECT_FALSE(try_parse_whole<int>("+42"));
  EXPECT_FALSE(try_parse_whole<int>(""));
  EXPECT_FALSE(try_parse_whole<unsigned>("-1"));
  EXPECT_FALSE(try_parse_whole<std::uint8_t>("256"));
}

TEST(ParseWhole, ErrorNamesWhatAndTheValue) {
  try {
    parse_whole<std::uint16_t>("70000", "port");
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "port: '70000' is out of range");
  }
  try {
    parse_whole<int>("12ab", "iteration");
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "iteration: '12ab' is not a number");
  }
}

// parse_whole_status tells out of range from not a number, for doubles too.
TEST(ParseWhole, StatusTellsOutOfRangeFromNotANumber) {
  double d = 7;
  EXPECT_EQ(parse_whole_status("1e400", d), ParseStatus::kOutOfRange);
  EXPECT_EQ(parse_whole_status("1e-400", d), ParseStatus::kOutOfRange);
  EXPECT_EQ(parse_whole_status("1e4x", d), ParseStatus::kNotANumber);
  EXPECT_EQ(parse_whole_status("", d), ParseStatus::kNotANumber);
  EXPECT_EQ(d, 7);  // untouched unless kOk
  EXPECT_EQ(parse_whole_status("2.5", d), ParseStatus::kOk);
  EXPECT_EQ(d, 2.5);
  unsigned u = 0;
  EXPECT_EQ(parse_whole_status("99999999999", u), ParseStatus::kOutOfRange);
  EXPECT_EQ(parse_whole_status("-1", u), ParseStatus::kNotANumber);
  EXPECT_FALSE(try_parse_whole<double>("1e400").has_value());
}

}  // namespace
}  // namespace schedrig
