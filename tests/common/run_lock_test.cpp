// The machine-wide run lock (common/run_lock.h): its state file, the wait
// message, and the errors its callers map to exit codes.
#include "common/run_lock.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "common/run_lock_state.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using namespace std::chrono_literals;
using schedrig::testing::TempDir;

TEST(RunLock, TheDefaultIsOnTheRealRunUnlessTheEnvironmentSaysOtherwise) {
  const char* old = std::getenv(kRunLockEnv);
  const std::string saved = old ? old : "";
  ::unsetenv(kRunLockEnv);
  if (::geteuid() == 0) {
    EXPECT_EQ(default_run_lock_path(), "/run/schedrig/run.lock");
  }
  ::setenv(kRunLockEnv, "/tmp/x/run.lock", 1);
  EXPECT_EQ(default_run_lock_path(), "/tmp/x/run.lock");
  if (old) {
    ::setenv(kRunLockEnv, saved.c_str(), 1);
  } else {
    ::unsetenv(kRunLockEnv);
  }
}

TEST(RunLock, TheHolderNamesItsRunAndStartFromItsStateFile) {
  TempDir t;
  std::atomic<bool> stop{false};
  RunLock a({t.file("run.lock"), 0});
  ASSERT_TRUE(a.acquire("run-a", &stop, {}));
  struct stat st {};
  ASSERT_EQ(::stat(t.file("run.lock.state").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
  RunLock b({t.file("run.lock"), 0.2});
  const RunLockHolder h = b.holder();
  EXPECT_EQ(h.pid, ::getpid());
  EXPECT_EQ(h.run_id, "run-a");
  EXPECT_GT(h.since_ns, 0);
  const std::string message = run_lock_wait_message(h);
  EXPECT_EQ(message.rfind("waiting for run lock held by pid " + std::to_string(::getpid()) +
                              " (run run-a, since 20",
                          0),
            0u)
      << message;
  EXPECT_EQ(message.substr(message.size() - 5), " UTC)");
  std::vector<std::string> told;
  EXPECT_FALSE(b.acquire("run-b", &stop, [&](const std::string& m, bool) { told.push_back(m); }));
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0], message);
}

TEST(RunLock, AStateFileThatCannotBeTrustedOrNamesAnotherPidIsNotBelieved) {
  TempDir t;
  std::atomic<bool> stop{false};
  RunLock a({t.file("run.lock"), 0});
  ASSERT_TRUE(a.acquire("run-a", &stop, {}));
  ASSERT_EQ(::chmod(t.file("run.lock.state").c_str(), 0666), 0);
  EXPECT_EQ(a.holder().run_id, "");
  EXPECT_EQ(run_lock_wait_message(a.holder()),
            "waiting for run lock held by pid " + std::to_string(::getpid()) + " (run unknown)");
  std::ofstream(t.file("run.lock.state"), std::ios::trunc) << "1 forged-run 1000\n";
  ASSERT_EQ(::chmod(t.file("run.lock.state").c_str(), 0644), 0);
  EXPECT_EQ(a.holder().run_id, "");  // pid 1 does not hold the lock
  std::filesystem::remove(t.file("run.lock.state"));
  std::filesystem::create_symlink("/etc/hostname", t.file("run.lock.state"));
  EXPECT_EQ(a.holder().run_id, "");
}

TEST(RunLock, TheLockIs0600AndItsStateFileIsRemovedOnRelease) {
  TempDir t;
  std::atomic<bool> stop{false};
  {
    RunLock a({t.file("run.lock"), 0});
    ASSERT_TRUE(a.acquire("run-a", &stop, {}));
    struct stat st {};
    ASSERT_EQ(::stat(t.file("run.lock").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);
    EXPECT_TRUE(std::filesystem::exists(t.file("run.lock.state")));
    {
      RunLock b({t.file("run.lock"), 0.1});
      EXPECT_FALSE(b.acquire("run-b", &stop, {}));
    }
    EXPECT_TRUE(std::filesystem::exists(t.file("run.lock.state")));  // b never held it
  }
  EXPECT_FALSE(std::filesystem::exists(t.file("run.lock.state")));
  EXPECT_TRUE(std::filesystem::exists(t.file("run.lock")));
}

TEST(RunLock, ALockNamedLikeAStateFileKeepsItsInode) {
  TempDir t;
  std::atomic<bool> stop{false};
  std::ofstream(t.file("run.state")) << "";
  struct stat before {};
  ASSERT_EQ(::stat(t.file("run.state").c_str(), &before), 0);
  RunLock a({t.file("run.state"), 0});
  ASSERT_TRUE(a.acquire("run-a", &stop, {}));
  struct stat after {};
  ASSERT_EQ(::stat(t.file("run.state").c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);  // the state went to run.state.state
  EXPECT_TRUE(std::filesystem::exists(t.file("run.state.state")));
  RunLock b({t.file("run.state"), 0.1});
  EXPECT_FALSE(b.acquire("run-b", &stop, {}));  // the same lock, still held
  EXPECT_EQ(b.holder().run_id, "run-a");
}

TEST(RunLock, ATimeoutUnderAMillisecondStillRunsOutAndNaNIsRefused) {
  TempDir t;
  std::atomic<bool> stop{false};
  RunLock a({t.file("run.lock"), 0});
  ASSERT_TRUE(a.acquire("run-a", &stop, {}));
  std::atomic<bool> give_up{false};
  std::thread guard([&] {  // were 0.4 ms "forever", this ends the wait
    for (int i = 0; i < 50 && !stop.load(); ++i) std::this_thread::sleep_for(100ms);
    give_up = true;
  });
  RunLock b({t.file("run.lock"), 0.0004});
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(b.acquire("run-b", &give_up, {}));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  stop = true;
  guard.join();
  try {
    hold_run_lock({t.file("run.lock"), std::nan("")}, "r", give_up, {});
    FAIL() << "expected NaN refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("not a number of seconds"), std::string::npos) << e.what();
  }
}

TEST(RunLock, HoldErrorsCarryTheirKinds) {
  TempDir t;
  std::atomic<bool> stop{false};
  ASSERT_EQ(::chmod(t.path().c_str(), 0777), 0);
  try {
    hold_run_lock({t.file("run.lock"), 0}, "r", stop, {});
    FAIL() << "expected an untrusted directory";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("run lock: " + t.path() + " is writable by group"),
              std::string::npos)
        << e.what();
  }
  ASSERT_EQ(::chmod(t.path().c_str(), 0700), 0);
  const auto held = hold_run_lock({t.file("run.lock"), 0}, "first", stop, {});
  try {
    hold_run_lock({t.file("run.lock"), 0.2}, "second", stop, {});
    FAIL() << "expected a timeout";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    EXPECT_NE(std::string(e.what()).find("(run first, since "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(") after 0.2 s"), std::string::npos) << e.what();
  }
  stop = true;
  try {
    hold_run_lock({t.file("run.lock"), 0}, "third", stop, {});
    FAIL() << "expected a stop";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInterrupted);
  }
}

}  // namespace
}  // namespace schedrig
