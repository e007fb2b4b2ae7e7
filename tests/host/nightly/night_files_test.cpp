// `nightly --nights DIR` (schedrig-nightly.service): each night's directory
// is named by its UTC start, and a second night in the same minute gets a
// name of its own (issue #19).
#include "host/nightly/night_files.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "common/cli_error.h"
#include "tests/support/run_command.h"

namespace schedrig::nightly {
namespace {

namespace fs = std::filesystem;

constexpr std::time_t k20261202T0100Z = 1796173200;  // 2026-12-02 01:00:00 UTC

TEST(NewNightDir, IsNamedByTheUtcStartAndMadeUniqueWithinAMinute) {
  testing::TempDir tmp;
  const std::string nights = tmp.file("nights");
  const std::string first = new_night_dir(nights, k20261202T0100Z + 59);
  EXPECT_EQ(first, nights + "/2026-12-02T0100Z");
  EXPECT_EQ(fs::status(nights).permissions() & fs::perms::all, fs::perms::owner_all);
  EXPECT_TRUE(fs::is_empty(first));
  EXPECT_EQ(fs::status(first).permissions() & fs::perms::all, fs::perms::owner_all);
  EXPECT_EQ(new_night_dir(nights, k20261202T0100Z), nights + "/2026-12-02T0100Z-2");
  EXPECT_EQ(new_night_dir(nights, k20261202T0100Z), nights + "/2026-12-02T0100Z-3");
  EXPECT_EQ(new_night_dir(nights, k20261202T0100Z + 60), nights + "/2026-12-02T0101Z");
}

TEST(NewNightDir, RefusesThe100thNightOfAMinute) {
  testing::TempDir tmp;
  const std::string nights = tmp.file("nights");
  fs::create_directories(nights + "/2026-12-02T0100Z");
  for (int n = 2; n < 100; ++n)
    fs::create_directory(nights + "/2026-12-02T0100Z-" + std::to_string(n));
  try {
    new_night_dir(nights, k20261202T0100Z);
    FAIL() << "no error";
  } catch (const CliError& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_EQ(std::string(e.what()),
              "--nights " + nights + ": 99 nights already started at 2026-12-02T0100Z");
  }
}

// What `--nights DIR` must refuse (exit 2, naming DIR): a directory others
// may write, where they could make tomorrow's night directory first, and a
// link. Neither gets a night directory.
TEST(NewNightDir, RefusesANightsDirOthersMayWriteOrALink) {
  testing::TempDir tmp;
  const std::string open_dir = tmp.file("open");
  fs::create_directory(open_dir);
  fs::permissions(open_dir, fs::perms::all);
  const std::string link = tmp.file("link");
  fs::create_directory(tmp.file("real"));
  fs::create_directory_symlink(tmp.file("real"), link);
  for (const std::string& nights : {open_dir, link}) {
    try {
      new_night_dir(nights, k20261202T0100Z);
      ADD_FAILURE() << nights << ": no error";
    } catch (const CliError& e) {
      EXPECT_EQ(e.exit_code(), 2);
      EXPECT_EQ(std::string(e.what()).rfind("--nights " + nights + ": ", 0), 0u) << e.what();
    }
  }
  EXPECT_TRUE(fs::is_empty(open_dir));
  EXPECT_TRUE(fs::is_empty(tmp.file("real")));
}

// A parent others may write (not sticky) or another user owns lets them
// rename DIR away and put theirs in its place: refused too.
TEST(NewNightDir, RefusesANightsDirUnderAParentOthersControl) {
  testing::TempDir tmp;
  const std::string open_parent = tmp.file("open");
  fs::create_directory(open_parent);
  fs::permissions(open_parent, fs::perms::all);  // 0777, not sticky
  try {
    new_night_dir(open_parent + "/nights", k20261202T0100Z);
    FAIL() << "no error";
  } catch (const CliError& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_NE(std::string(e.what()).find(open_parent + " (above " + open_parent +
                                         "/nights) is writable by group or others (mode 0777)"),
              std::string::npos)
        << e.what();
  }
  fs::permissions(open_parent, fs::perms::all | fs::perms::sticky_bit);  // like /tmp: fine
  EXPECT_EQ(new_night_dir(open_parent + "/nights", k20261202T0100Z),
            open_parent + "/nights/2026-12-02T0100Z");
}

}  // namespace
}  // namespace schedrig::nightly
