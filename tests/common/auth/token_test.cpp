// common/auth/token.h: token shape, SHA-256, principal names, the Bearer header.
#include "common/auth/token.h"

#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace schedrig::auth {
namespace {

TEST(Token, SixtyFourLowercaseHexAndUnique) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string t = new_token();
    ASSERT_EQ(t.size(), 64u);
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos) << t;
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(Token, Sha256KnownVectors) {
  // FIPS 180-2 "abc" and the empty message.
  EXPECT_EQ(token_sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(token_sha256_hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Token, PrincipalNames) {
  for (const std::string& name :
       std::vector<std::string>{"a", "box1", "B0x.lab_3-a", "9", std::string(128, 'x')}) {
    EXPECT_TRUE(valid_principal_name(name)) << name;
  }
  for (const std::string& name :
       std::vector<std::string>{"", "-box", ".box", "_box", "box 1", "box/1", "box\n", "b\xc3\xa9",
                                std::string(129, 'x')}) {
    EXPECT_FALSE(valid_principal_name(name)) << name;
  }
  EXPECT_EQ(invalid_name_reason("a\x1b"),
            "invalid name 'a\\e': 1..128 chars of A-Z a-z 0-9 . _ -, the first a letter or digit");
}

TEST(Token, BearerHeader) {
  EXPECT_EQ(bearer_token("Bearer abc123"), "abc123");
  EXPECT_EQ(bearer_token("bearer abc123"), "abc123");
  EXPECT_EQ(bearer_token("BEARER abc123"), "abc123");
  for (const char* bad : {"", "Bearer", "Bearer ", "Bearer  abc", "Bearerabc", "Basic abc",
                          "Bearer a b", "Bearer abc\t", " Bearer abc"}) {
    EXPECT_EQ(bearer_token(bad), std::nullopt) << "'" << bad << "'";
  }
}

}  // namespace
}  // namespace schedrig::auth
