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
  EXPECT_FALSE(fs::exists(first));  // the night makes its own directory
  fs::create_directory(first);
  EXPECT_EQ(new_night_dir(nights, k20261202T0100Z), nights + "/2026-12-02T0100Z-2");
  fs::create_directory(nights + "/2026-12-02T0100Z-2");
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

}  // namespace
}  // namespace schedrig::nightly
