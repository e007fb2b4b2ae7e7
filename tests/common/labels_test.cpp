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

}  // namespace
}  // namespace schedrig
