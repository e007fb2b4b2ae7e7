// Whose state dir to believe (issue #13 review): a state dir another user
// owns or may write is refused with exit 2, naming the path, owner, mode and
// the fix; STATE/current-run is read only as a regular file of this user or
// root, never through a link, never blocking on a FIFO.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>

#include <gtest/gtest.h>

#include "agent/session/agent_state.h"
#include "agent/session/current_run.h"
#include "common/cli_error.h"
#include "tests/common/auth/private_files.h"
#include "tests/support/run_command.h"

namespace schedrig::agent {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// The CliError state_dir_of throws for `dir`, if any.
std::optional<CliError> state_dir_error(const std::string& dir) {
  try {
    state_dir_of(StateOptions{"", dir});
  } catch (const CliError& e) {
    return e;
  }
  return std::nullopt;
}

TEST(StateDirTrust, AStateDirWritableByOthersIsRefused) {
  const TempDir tmp;
  const std::string dir = tmp.file("state");
  EXPECT_EQ(state_dir_of(StateOptions{"", dir}), dir);  // made 0700: fine
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  const auto e = state_dir_error(dir);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->exit_code(), 2);
  const std::string why = e->what();
  EXPECT_NE(why.find("state dir " + dir), std::string::npos) << why;
  EXPECT_NE(why.find("mode 0777"), std::string::npos) << why;
  EXPECT_NE(why.find("chown root and chmod 0700"), std::string::npos) << why;
  ASSERT_EQ(::chmod(dir.c_str(), 0755), 0);
  EXPECT_FALSE(state_dir_error(dir));
}

TEST(StateDirTrust, AStateDirOfAnotherUserIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown";
  const TempDir tmp;
  const std::string dir = tmp.file("state");
  fs::create_directory(dir);
  ASSERT_EQ(::chown(dir.c_str(), 4242, 4242), 0);
  const auto e = state_dir_error(dir);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->exit_code(), 2);
  EXPECT_NE(std::string(e->what()).find("owned by uid 4242"), std::string::npos) << e->what();
}

// The knob journal holds the values a root agent writes back into the
// kernel: one that others may write, or that another user owns, is refused
// before anything reads it (issue #19).
TEST(StateDirTrust, AJournalWritableByOthersIsRefused) {
  const TempDir tmp;
  const std::string dir = tmp.file("state");
  ASSERT_EQ(state_dir_of(StateOptions{"", dir}), dir);
  const std::string journal = dir + "/knobs-journal.json";
  testing::write_file(journal, "{}\n", 0600);
  EXPECT_FALSE(state_dir_error(dir));  // 0600: believed
  ASSERT_EQ(::chmod(journal.c_str(), 0620), 0);
  const auto e = state_dir_error(dir);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->exit_code(), 2);
  EXPECT_EQ(std::string(e->what()),
            "journal " + journal +
                ": mode 0620: writable by group or other, so another user could have chosen the "
                "values a restore writes; chown root and chmod 0600 it, or remove it once the "
                "knobs it lists are checked");
}

TEST(StateDirTrust, AJournalOfAnotherUserOrNotAFileIsRefused) {
  const TempDir tmp;
  const std::string dir = tmp.file("state");
  ASSERT_EQ(state_dir_of(StateOptions{"", dir}), dir);
  const std::string journal = dir + "/knobs-journal.json";
  fs::create_symlink(tmp.file("elsewhere"), journal);
  auto e = state_dir_error(dir);
  ASSERT_TRUE(e);
  EXPECT_NE(std::string(e->what()).find("not a regular file"), std::string::npos) << e->what();
  fs::remove(journal);
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown";
  testing::write_file(journal, "{}\n", 0600);
  ASSERT_EQ(::chown(journal.c_str(), 4242, 4242), 0);
  e = state_dir_error(dir);
  ASSERT_TRUE(e);
  EXPECT_NE(std::string(e->what()).find("owned by uid 4242"), std::string::npos) << e->what();
}

TEST(StateDirTrust, ACurrentRunFifoIsIgnoredWithoutBlocking) {
  const TempDir tmp;
  const std::string file = current_run_path(tmp.path());
  ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
  EXPECT_FALSE(read_current_run(file));  // hung in open() before
}

TEST(StateDirTrust, ACurrentRunLinkIsNotFollowed) {
  const TempDir tmp;
  const std::string elsewhere = tmp.file("elsewhere");
  write_current_run(elsewhere, {"run-7", "inst-a", "boot-a"});
  ASSERT_TRUE(read_current_run(elsewhere));
  fs::create_symlink(elsewhere, current_run_path(tmp.path()));
  EXPECT_FALSE(read_current_run(current_run_path(tmp.path())));
}

TEST(StateDirTrust, ACurrentRunOfAnotherUserIsIgnored) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown";
  const TempDir tmp;
  const std::string file = current_run_path(tmp.path());
  write_current_run(file, {"run-7", "inst-a", "boot-a"});
  ASSERT_EQ(::chown(file.c_str(), 4242, 4242), 0);
  EXPECT_FALSE(read_current_run(file));
}

}  // namespace
}  // namespace schedrig::agent
