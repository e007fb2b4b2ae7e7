// parse_cpulist / format_cpulist: the kernel's cpulist form, strides, errors.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/cpulist.h"

namespace schedrig {
namespace {

using Cpus = std::vector<int>;

// Expects parse_cpulist(text) to throw std::invalid_argument; returns what().
std::string error_of(const std::string& text) {
  try {
    Cpus got = parse_cpulist(text);
    ADD_FAILURE() << "no error for '" << text << "', got " << got.size() << " cpus";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Cpulist, ParsesRangesAndSingles) {
  EXPECT_EQ(parse_cpulist("0-3,8"), (Cpus{0, 1, 2, 3, 8}));
  EXPECT_EQ(parse_cpulist("5"), (Cpus{5}));
  EXPECT_EQ(parse_cpulist("0-0"), (Cpus{0}));
  EXPECT_EQ(parse_cpulist("10-11,2"), (Cpus{2, 10, 11}));
}

TEST(Cpulist, ParsesStride) {
  EXPECT_EQ(parse_cpulist("0-7:2"), (Cpus{0, 2, 4, 6}));
  EXPECT_EQ(parse_cpulist("1-9:4"), (Cpus{1, 5, 9}));
  EXPECT_EQ(parse_cpulist("0-7:2,1"), (Cpus{0, 1, 2, 4, 6}));
}

TEST(Cpulist, SortsAndDropsRepeats) {
  EXPECT_EQ(parse_cpulist("8,0-3,2,3"), (Cpus{0, 1, 2, 3, 8}));
}

TEST(Cpulist, TrimsWhitespaceAndNewline) {
  EXPECT_EQ(parse_cpulist("0-3,8\n"), (Cpus{0, 1, 2, 3, 8}));
  EXPECT_EQ(parse_cpulist("  0-1 , 4\t\n"), (Cpus{0, 1, 4}));
}

TEST(Cpulist, EmptyIsEmptySet) {
  EXPECT_EQ(parse_cpulist(""), Cpus{});
  EXPECT_EQ(parse_cpulist("\n"), Cpus{});
  EXPECT_EQ(parse_cpulist("   \t"), Cpus{});
}

TEST(Cpulist, BackwardsRangeNamesText) {
  std::string what = error_of("3-1");
  EXPECT_NE(what.find("'3-1'"), std::string::npos) << what;
  EXPECT_NE(what.find("backwards"), std::string::npos) << what;
}

TEST(Cpulist, BadTokensNameText) {
  for (const std::string text : {"a", "1,,2", "-1", "1-", "1-x", "0-7:", "0-7:x", "1.5"}) {
    std::string what = error_of(text);
    EXPECT_NE(what.find("'" + text + "'"), std::string::npos) << text << ": " << what;
  }
}

TEST(Cpulist, EmptyTokenBetweenCommasIsNamed) {
  std::string what = error_of("1,,2");
  EXPECT_NE(what.find("bad token ''"), std::string::npos) << what;
}

TEST(Cpulist, TrailingCommaIsAnError) {
  std::string what = error_of("1,");
  EXPECT_NE(what.find("'1,'"), std::string::npos) << what;
  EXPECT_NE(what.find("trailing comma"), std::string::npos) << what;
}

TEST(Cpulist, ZeroStrideIsAnError) {
  std::string what = error_of("0-7:0");
  EXPECT_NE(what.find("'0-7:0'"), std::string::npos) << what;
  EXPECT_NE(what.find("stride 0"), std::string::npos) << what;
}

TEST(Cpulist, HugeIndexIsAnError) {
  for (const std::string text : {"65536", "99999999999999999999", "0-70000", "2147483648"}) {
    std::string what = error_of(text);
    EXPECT_NE(what.find("'" + text + "'"), std::string::npos) << text << ": " << what;
  }
  EXPECT_EQ(parse_cpulist("65535"), (Cpus{65535}));
}

TEST(Cpulist, FormatsShortestForm) {
  EXPECT_EQ(format_cpulist({0, 1, 2, 3, 8}), "0-3,8");
  EXPECT_EQ(format_cpulist({0, 2, 4}), "0,2,4");
  EXPECT_EQ(format_cpulist({7}), "7");
  EXPECT_EQ(format_cpulist({0, 1, 3, 4, 10, 11, 12}), "0-1,3-4,10-12");
}

TEST(Cpulist, FormatsUnsortedAndRepeatedInput) {
  EXPECT_EQ(format_cpulist({8, 3, 2, 1, 0, 3, 8}), "0-3,8");
  EXPECT_EQ(format_cpulist({5, 5, 5}), "5");
}

TEST(Cpulist, FormatEmptyIsEmptyString) { EXPECT_EQ(format_cpulist({}), ""); }

TEST(Cpulist, RoundTrips) {
  for (const std::string text :
       {"0-3,8", "0", "0-1,3-4,10-12", "1,3,5,7", "0-127", "4-5,64-65535"}) {
    EXPECT_EQ(format_cpulist(parse_cpulist(text)), text);
  }
  Cpus odd = {9, 1, 3, 3, 2, 100};
  Cpus sorted = {1, 2, 3, 9, 100};
  EXPECT_EQ(parse_cpulist(format_cpulist(odd)), sorted);
  EXPECT_EQ(format_cpulist(parse_cpulist("0-7:2")), "0,2,4,6");
}

}  // namespace
}  // namespace schedrig
