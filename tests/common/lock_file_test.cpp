// The lock files of a root process (common/lock_file.h, trusted_dir.h,
// lock_holder.h, lock_wait.h): a trusted directory, no links, the holder
// from the kernel, stale files harmless, waits told while they last.
#include "common/lock_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "common/lock_holder.h"
#include "common/lock_wait.h"
#include "tests/support/flock_holder.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using namespace std::chrono_literals;
using schedrig::testing::TempDir;

using ChildHolder = schedrig::testing::FlockHolder;

std::string error_of(const std::string& path) {
  try {
    LockFile lock(path, 0600);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(TrustedDir, AMissingDirectoryIsCreated0755) {
  TempDir t;
  const std::string dir = t.file("run/schedrig");
  LockFile lock(dir + "/run.lock", 0600);
  struct stat st {};
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0755u);
  EXPECT_EQ(st.st_uid, ::geteuid());
  EXPECT_TRUE(lock.try_lock());
}

TEST(TrustedDir, AGroupOrOtherWritableDirectoryIsRefusedNamingTheMode) {
  TempDir t;
  ASSERT_EQ(::chmod(t.path().c_str(), 01777), 0);
  const std::string e = error_of(t.file("run.lock"));
  EXPECT_NE(e.find(t.path() + " is writable by group or others (mode 1777)"), std::string::npos)
      << e;
  EXPECT_FALSE(std::filesystem::exists(t.file("run.lock")));
  ASSERT_EQ(::chmod(t.path().c_str(), 0775), 0);
  EXPECT_NE(error_of(t.file("run.lock")).find("(mode 0775)"), std::string::npos);
}

TEST(TrustedDir, ADirectoryOfAnotherUserIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown";
  TempDir t;
  ASSERT_EQ(::chown(t.path().c_str(), 12345, 12345), 0);
  const std::string e = error_of(t.file("run.lock"));
  EXPECT_NE(e.find("is owned by uid 12345, not by root or this user"), std::string::npos) << e;
}

TEST(TrustedDir, ALinkAsTheDirectoryIsRefused) {
  TempDir t;
  std::filesystem::create_directory(t.file("real"));
  std::filesystem::create_directory_symlink(t.file("real"), t.file("link"));
  const std::string e = error_of(t.file("link/run.lock"));
  EXPECT_NE(e.find("cannot open directory " + t.file("link")), std::string::npos) << e;
  EXPECT_FALSE(std::filesystem::exists(t.file("real/run.lock")));
}

TEST(LockFile, ALinkPlantedAtTheLockPathIsRefusedAndItsTargetUntouched) {
  TempDir t, outside;
  std::ofstream(outside.file("victim")) << "precious\n";
  std::filesystem::create_symlink(outside.file("victim"), t.file("run.lock"));
  const std::string e = error_of(t.file("run.lock"));
  EXPECT_NE(e.find("cannot open lock " + t.file("run.lock")), std::string::npos) << e;
  std::ifstream in(outside.file("victim"));
  std::string v;
  in >> v;
  EXPECT_EQ(v, "precious");
}

TEST(LockFile, AFifoAtTheLockPathIsRefusedWithoutBlocking) {
  TempDir t;
  ASSERT_EQ(::mkfifo(t.file("run.lock").c_str(), 0600), 0);
  EXPECT_NE(error_of(t.file("run.lock")).find("not a regular file"), std::string::npos);
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(LockFile, ANewLockFileIs0600AndAnOld0644OneIsMade0600) {
  TempDir t;
  {
    LockFile lock(t.file("new.lock"), 0600);
    EXPECT_EQ(mode_of(t.file("new.lock")), 0600u);
  }
  std::ofstream(t.file("old.lock")) << "";
  ASSERT_EQ(::chmod(t.file("old.lock").c_str(), 0644), 0);
  LockFile lock(t.file("old.lock"), 0600);
  EXPECT_EQ(mode_of(t.file("old.lock")), 0600u);
  EXPECT_TRUE(lock.try_lock());
}

TEST(LockFile, ALockFileOfAnotherUserIsRefusedNamingItsOwnerAndKeepsItsMode) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown";
  TempDir t;
  std::ofstream(t.file("run.lock")) << "";
  ASSERT_EQ(::chmod(t.file("run.lock").c_str(), 0644), 0);
  ASSERT_EQ(::chown(t.file("run.lock").c_str(), 12345, 12345), 0);
  const std::string e = error_of(t.file("run.lock"));
  EXPECT_NE(e.find("cannot open lock " + t.file("run.lock") + ": owned by uid 12345"),
            std::string::npos)
      << e;
  EXPECT_EQ(mode_of(t.file("run.lock")), 0644u);
}

// Whether uid 65534 (nobody) can open `path` read-only (and so flock it).
bool nobody_can_open(const std::string& path) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
    const int fd = ::open(path.c_str(), O_RDONLY);
    ::_exit(fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 2) << "setuid failed";
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(LockFile, AnotherUserCannotOpenTheLockToFlockIt) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to become another user";
  TempDir t;
  ASSERT_EQ(::chmod(t.path().c_str(), 0755), 0);  // nobody may reach the file
  std::ofstream(t.file("control")) << "";
  ASSERT_EQ(::chmod(t.file("control").c_str(), 0644), 0);
  ASSERT_TRUE(nobody_can_open(t.file("control")));  // what a 0644 lock file allowed
  std::ofstream(t.file("run.lock")) << "";
  ASSERT_EQ(::chmod(t.file("run.lock").c_str(), 0644), 0);
  LockFile lock(t.file("run.lock"), 0600);
  EXPECT_FALSE(nobody_can_open(t.file("run.lock")));
  EXPECT_TRUE(lock.try_lock());
}

TEST(LockFile, TheHolderIsTheKernelsAndAStaleFileOfADeadHolderDoesNotBlock) {
  TempDir t;
  ChildHolder child(t.file("run.lock"));
  LockFile lock(t.file("run.lock"), 0600);
  EXPECT_FALSE(lock.try_lock());
  ASSERT_TRUE(lock.holder_pid());
  EXPECT_EQ(*lock.holder_pid(), child.pid());
  child.kill();  // SIGKILL: the file stays, the lock dies with the fd
  EXPECT_TRUE(std::filesystem::exists(t.file("run.lock")));
  EXPECT_TRUE(lock.try_lock());
  EXPECT_EQ(lock.holder_pid(), ::getpid());
}

TEST(LockHolder, ParsesTheFlockLineOfTheInodeAndSkipsOthers) {
  const std::string locks =
      "1: POSIX  ADVISORY  WRITE 77 fe:00:42 0 EOF\n"
      "2: OFDLCK ADVISORY  WRITE -1 fe:00:43 0 EOF\n"
      "3: FLOCK  ADVISORY  WRITE 4242 fe:00:43 0 EOF\n"
      "3: -> FLOCK  ADVISORY  WRITE 999 fe:00:43 0 EOF\n"
      "4: FLOCK  ADVISORY  WRITE 5151 08:01:43 0 EOF\n";
  EXPECT_EQ(parse_flock_holder(locks, makedev(0xfe, 0), 43), 4242);
  EXPECT_EQ(parse_flock_holder(locks, makedev(8, 1), 43), 5151);
  EXPECT_FALSE(parse_flock_holder(locks, makedev(0xfe, 0), 42));  // a POSIX lock only
  EXPECT_FALSE(parse_flock_holder("", makedev(0xfe, 0), 43));
}

TEST(LockWait, AWaitIsToldAsItStartsEveryIntervalAndWhenTaken) {
  TempDir t;
  ChildHolder child(t.file("run.lock"));
  LockFile lock(t.file("run.lock"), 0600);
  std::vector<LockWaitStatus> told;
  const pid_t holder = child.pid();  // before the thread that kills (and clears) it
  std::thread release([&] {
    std::this_thread::sleep_for(700ms);
    child.kill();
  });
  EXPECT_TRUE(wait_for_lock(lock, {0ms, 200ms, nullptr},
                            [&](const LockWaitStatus& w) { told.push_back(w); }));
  release.join();
  ASSERT_GE(told.size(), 4u);  // at once, ~200, ~400, ~600 ms, then taken
  EXPECT_LE(told.size(), 6u);
  for (std::size_t i = 0; i + 1 < told.size(); ++i) {
    EXPECT_FALSE(told[i].taken);
    EXPECT_EQ(told[i].holder, holder);
  }
  EXPECT_TRUE(told.back().taken);
  EXPECT_GE(told.back().waited, 600ms);
}

TEST(LockWait, AWaitRunsOutOrStopsAndAFreeLockIsToldNothing) {
  TempDir t;
  LockFile free_lock(t.file("free.lock"), 0644);
  int calls = 0;
  EXPECT_TRUE(wait_for_lock(free_lock, {}, [&](const LockWaitStatus&) { ++calls; }));
  EXPECT_EQ(calls, 0);

  ChildHolder child(t.file("run.lock"));
  LockFile lock(t.file("run.lock"), 0600);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(wait_for_lock(lock, {300ms, 10s, nullptr}, {}));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 300ms);
  std::atomic<bool> stop{true};
  EXPECT_FALSE(wait_for_lock(lock, {0ms, 10s, &stop}, {}));
}

}  // namespace
}  // namespace schedrig
