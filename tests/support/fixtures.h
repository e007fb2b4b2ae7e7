// Test support: where the fixtures (real /proc samples, topologies, A/B
// series) are, and one way for a test to need one.
//
// The fixtures live outside the repo, in ../shared/fixtures beside the source
// tree; $SCHEDRIG_FIXTURES names another directory. A test whose fixture is
// absent skips with one message naming the path; when $CI is set (CI's fresh
// clone has ../shared beside it) it fails instead, so no CI run goes green
// by skipping.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace schedrig::testing {

// The fixture root: $SCHEDRIG_FIXTURES when set and not empty, else
// SOURCE_DIR/../shared/fixtures (fixed at build time).
std::filesystem::path fixtures_dir();

// fixtures_dir() / rel, e.g. fixture_path("procfs/proc_stat.txt").
std::filesystem::path fixture_path(const std::string& rel);

// True when $CI is set and not empty: a missing fixture is a failure.
bool fixtures_required();

// Nothing when `path` exists; else the message a test skips or fails with:
// the missing path, that the fixture root is not a directory when it is a
// file, and how to point $SCHEDRIG_FIXTURES elsewhere.
std::optional<std::string> missing_fixture(const std::filesystem::path& path);

// As missing_fixture, but `path` must be a regular file: a directory (or a
// FIFO) gives "fixture is not a regular file: PATH ...".
std::optional<std::string> missing_fixture_file(const std::filesystem::path& path);

// The whole text of fixture_path(rel); nothing when it cannot be read or is
// not a regular file (a FIFO is refused at once, never waited on).
std::optional<std::string> read_fixture(const std::string& rel);

}  // namespace schedrig::testing

// Skips the current test (fails it when fixtures_required()) unless `path`
// (a std::filesystem::path, usually from fixture_path) exists. For use in a
// TEST body or a fixture's SetUp(), like GTEST_SKIP().
#define SCHEDRIG_REQUIRE_FIXTURE(path) \
  SCHEDRIG_REQUIRE_FIXTURE_WITH_(::schedrig::testing::missing_fixture(path))

// As SCHEDRIG_REQUIRE_FIXTURE, but `path` must be a regular file.
#define SCHEDRIG_REQUIRE_FIXTURE_FILE(path) \
  SCHEDRIG_REQUIRE_FIXTURE_WITH_(::schedrig::testing::missing_fixture_file(path))

// Skips (under CI fails) with the message `check` gives, if any.
#define SCHEDRIG_REQUIRE_FIXTURE_WITH_(check)                                           \
  do {                                                                                  \
    if (const auto schedrig_missing_ = (check)) {                                       \
      if (::schedrig::testing::fixtures_required()) GTEST_FAIL() << *schedrig_missing_; \
      GTEST_SKIP() << *schedrig_missing_;                                               \
    }                                                                                   \
  } while (false)

// Declares `std::string var` with the whole text of fixture_path(rel), or
// skips (under CI fails) the test like SCHEDRIG_REQUIRE_FIXTURE.
#define SCHEDRIG_FIXTURE(var, rel)                                       \
  SCHEDRIG_REQUIRE_FIXTURE_FILE(::schedrig::testing::fixture_path(rel)); \
  std::string var = ::schedrig::testing::read_fixture(rel).value()
