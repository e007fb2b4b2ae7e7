// The fixture lookup (tests/support/fixtures.h): $SCHEDRIG_FIXTURES overrides
// the default root; a missing fixture skips with a message naming it, and
// fails when $CI is set (checked through fixture_probe in a subprocess).
#include "tests/support/fixtures.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/run_command.h"
#include "tests/support/time_limit.h"

namespace schedrig::testing {
namespace {

// Sets (or, with nothing, unsets) an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// The probe run with SCHEDRIG_FIXTURES=`dir` and CI set or unset.
CommandResult run_probe(const std::string& dir, bool ci) {
  const std::string env = "env -u CI SCHEDRIG_FIXTURES='" + dir + "'" + (ci ? " CI=1 " : " ");
  return run_command(env + SCHEDRIG_FIXTURE_PROBE);
}

TEST(Fixtures, EnvironmentOverridesTheRoot) {
  const ScopedEnv dir("SCHEDRIG_FIXTURES", "/elsewhere/fixtures");
  EXPECT_EQ(fixtures_dir(), "/elsewhere/fixtures");
  EXPECT_EQ(fixture_path("procfs/proc_stat.txt"), "/elsewhere/fixtures/procfs/proc_stat.txt");
}

TEST(Fixtures, DefaultRootIsSharedBesideTheSource) {
  const ScopedEnv dir("SCHEDRIG_FIXTURES", std::nullopt);
  EXPECT_EQ(fixtures_dir(), SCHEDRIG_SOURCE_DIR "/../shared/fixtures");
  const ScopedEnv empty("SCHEDRIG_FIXTURES", "");
  EXPECT_EQ(fixtures_dir(), SCHEDRIG_SOURCE_DIR "/../shared/fixtures");
}

TEST(Fixtures, CiMakesFixturesRequired) {
  {
    const ScopedEnv ci("CI", "true");
    EXPECT_TRUE(fixtures_required());
  }
  const ScopedEnv ci("CI", std::nullopt);
  EXPECT_FALSE(fixtures_required());
}

TEST(Fixtures, MissingNamesThePathAndTheVariable) {
  const auto message = missing_fixture("/nonexistent/procfs/x.txt");
  ASSERT_TRUE(message.has_value());
  EXPECT_NE(message->find("/nonexistent/procfs/x.txt"), std::string::npos) << *message;
  EXPECT_NE(message->find("SCHEDRIG_FIXTURES"), std::string::npos) << *message;
  EXPECT_FALSE(missing_fixture(SCHEDRIG_SOURCE_DIR).has_value());
}

TEST(Fixtures, ReadFixtureReadsTheWholeFileOrNothing) {
  const TempDir dir;
  run_command("printf 'a\\nb\\n' > " + dir.file("f.txt"));
  const ScopedEnv root("SCHEDRIG_FIXTURES", dir.path());
  EXPECT_EQ(read_fixture("f.txt"), "a\nb\n");
  EXPECT_FALSE(read_fixture("absent.txt").has_value());
}

TEST(Fixtures, MissingFixtureSkipsWithoutCi) {
  const CommandResult r = run_probe("/nonexistent", false);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("[  SKIPPED ] FixtureProbe.NeedsProcStat"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("fixture missing: /nonexistent/procfs/proc_stat.txt"), std::string::npos)
      << r.output;
}

TEST(Fixtures, MissingFixtureFailsUnderCi) {
  const CommandResult r = run_probe("/nonexistent", true);
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("[  FAILED  ] FixtureProbe.NeedsProcStat"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("fixture missing: /nonexistent/procfs/proc_stat.txt"), std::string::npos)
      << r.output;
}

TEST(Fixtures, PresentFixturePassesUnderCi) {
  const TempDir dir;
  run_command("mkdir " + dir.file("procfs") + " && touch " + dir.file("procfs/proc_stat.txt"));
  const CommandResult r = run_probe(dir.path(), true);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("[       OK ] FixtureProbe.NeedsProcStat"), std::string::npos)
      << r.output;
}

// SCHEDRIG_FIXTURES naming a file: the message says the root is no directory.
TEST(Fixtures, ARootThatIsAFileIsSaidToBeOne) {
  const TempDir dir;
  run_command("touch " + dir.file("root"));
  const ScopedEnv root("SCHEDRIG_FIXTURES", dir.file("root"));
  const auto message = missing_fixture(fixture_path("procfs/proc_stat.txt"));
  ASSERT_TRUE(message.has_value());
  EXPECT_NE(message->find("fixture root " + dir.file("root")), std::string::npos) << *message;
  EXPECT_NE(message->find("not a directory"), std::string::npos) << *message;
  const ScopedEnv real("SCHEDRIG_FIXTURES", dir.path());
  EXPECT_EQ(missing_fixture(fixture_path("x")).value().find("not a directory"), std::string::npos);
}

// A fixture that is a directory: read as nothing, and the file check names it.
TEST(Fixtures, ADirectoryIsNotAFixtureFile) {
  const TempDir dir;
  run_command("mkdir " + dir.file("d") + " && touch " + dir.file("f"));
  const ScopedEnv root("SCHEDRIG_FIXTURES", dir.path());
  EXPECT_FALSE(read_fixture("d").has_value());
  const auto message = missing_fixture_file(fixture_path("d"));
  ASSERT_TRUE(message.has_value());
  EXPECT_NE(message->find("fixture is not a regular file: " + dir.file("d")), std::string::npos)
      << *message;
  EXPECT_FALSE(missing_fixture_file(fixture_path("f")).has_value());
  EXPECT_NE(missing_fixture_file(fixture_path("none")).value().find("fixture missing"),
            std::string::npos);
}

// A FIFO fixture is refused at once, not waited on for a writer.
TEST(Fixtures, AFifoFixtureDoesNotBlock) {
  const TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  const ScopedEnv root("SCHEDRIG_FIXTURES", dir.path());
  bool read = true;
  ASSERT_TRUE(finishes_within(std::chrono::seconds(5), [&] {
    read = read_fixture("fifo").has_value();
  })) << "reading a FIFO fixture blocked";
  EXPECT_FALSE(read);
}

}  // namespace
}  // namespace schedrig::testing
