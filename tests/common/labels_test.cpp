// parse_labels: --label KEY=VALUE items into a map, bad items named.
#include "common/labels.h"

#include <gtest/gtest.h>

#include "common/cli_error.h"

namespace schedrig {
namespace {

std::string error_of(const std::vector<std::string>& items) {
  try {
    parse_labels(items);
  } catch (const CliError& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    return e.what();
  }
  ADD_FAILURE() << "no CliError";
  return "";
}

TEST(Labels, KeyValuePairsWithEmptyOrEqualsInValues) {
  const auto labels = parse_labels({"kernel=6.19-rc3", "tag=", "cmd=a=b"});
  EXPECT_EQ(labels, (std::map<std::string, std::string>{
                        {"kernel", "6.19-rc3"}, {"tag", ""}, {"cmd", "a=b"}}));
  EXPECT_TRUE(parse_labels({}).empty());
}

TEST(Labels, BadItemsAreNamed) {
  EXPECT_EQ(error_of({"kernel"}), "--label 'kernel': want KEY=VALUE");
  EXPECT_EQ(error_of({"=x"}), "--label '=x': want KEY=VALUE");
  EXPECT_EQ(error_of({"a=1", "a=2"}), "--label 'a=2': key given twice");
}

TEST(Labels, TheApiBoundsApply) {
  EXPECT_EQ(error_of({std::string(129, 'k') + "=v"}),
            "--label '" + std::string(40, 'k') +
                "...': want a key of 1..128 bytes and a value of at most 1024 bytes");
  EXPECT_NE(error_of({"k=" + std::string(1025, 'v')}).find("at most 1024 bytes"),
            std::string::npos);
  std::vector<std::string> many;
  for (int i = 0; i < 65; ++i)
    many.push_back(std::string(1, 'k').append(std::to_string(i)).append("=v"));
  EXPECT_EQ(error_of(many), "--label: 65 labels; at most 64");
  many.resize(63);
  many.push_back(std::string(128, 'k') + "=" + std::string(1024, 'v'));
  EXPECT_EQ(parse_labels(many).size(), 64u) << "at the bounds";
}

}  // namespace
}  // namespace schedrig
