// Putting a whole file in place (common/replace_file.h): the text lands,
// a planted link is replaced and never followed, and a failed rename
// leaves no NAME.new behind.
#include "common/replace_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <gtest/gtest.h>

#include "tests/support/run_command.h"

namespace schedrig {
namespace {

namespace fs = std::filesystem;

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ReplaceFile, WritesTheWholeTextAndReplacesAPlantedLinkWithoutFollowingIt) {
  testing::TempDir dir;
  const std::string target = dir.file("victim");
  std::ofstream(target) << "keep";
  ASSERT_EQ(::symlink(target.c_str(), dir.file("page.html").c_str()), 0);
  ASSERT_EQ(::symlink(target.c_str(), dir.file("page.html.new").c_str()), 0);
  replace_file_at(AT_FDCWD, dir.file("page.html"), "<p>hi</p>");
  EXPECT_EQ(read(target), "keep");
  EXPECT_FALSE(fs::is_symlink(dir.file("page.html")));
  EXPECT_EQ(read(dir.file("page.html")), "<p>hi</p>");
  EXPECT_FALSE(fs::exists(dir.file("page.html.new")));
}

TEST(ReplaceFile, AFailedRenameNamesTheFileAndLeavesNoHalfMadeCopy) {
  testing::TempDir dir;
  fs::create_directory(dir.file("a-directory"));
  std::ofstream(dir.file("a-directory/inside")) << "x";  // rename(2) over it fails
  try {
    replace_file_at(AT_FDCWD, dir.file("a-directory"), "text");
    ADD_FAILURE() << "no throw";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("a-directory"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir.file("a-directory.new")));
  EXPECT_TRUE(fs::is_directory(dir.file("a-directory")));
}

}  // namespace
}  // namespace schedrig
