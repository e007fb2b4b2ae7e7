#include <gtest/gtest.h>

#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "agent/sampler/fake_proc.h"
#include "agent/sampler/sampler.h"
#include "tests/support/run_command.h"
#include "tests/support/time_limit.h"

namespace schedrig::sampler {
namespace {

FakeStep running(std::uint32_t n) {
  FakeStep s;
  s.procs_running = n;
  return s;
}

TEST(WaitUntilQuiet, QuietBoxWaitsHoldTime) {
  schedrig::testing::TempDir dir;
  FakeProc fake(dir.path(), {.pus = 2});
  fake.step(running(2));  // the poller + one other
  const QuietResult r = wait_until_quiet(procfs::Root::under(dir.path()), 1, 0.3, 2.0);
  EXPECT_FALSE(r.gave_up);
  EXPECT_GE(r.waited_s, 0.3);
  EXPECT_LT(r.waited_s, 0.6);
}

TEST(WaitUntilQuiet, BusyBoxGivesUpAtLimit) {
  schedrig::testing::TempDir dir;
  FakeProc fake(dir.path(), {.pus = 2});
  fake.step(running(5));
  const QuietResult r = wait_until_quiet(procfs::Root::under(dir.path()), 1, 0.2, 0.5);
  EXPECT_TRUE(r.gave_up);
  EXPECT_GE(r.waited_s, 0.5);
  EXPECT_LT(r.waited_s, 0.8);
}

TEST(WaitUntilQuiet, BoxThatCalmsDown) {
  schedrig::testing::TempDir dir;
  FakeProc fake(dir.path(), {.pus = 2});
  fake.step(running(6));
  std::thread calm([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    fake.step(running(1));
  });
  const QuietResult r = wait_until_quiet(procfs::Root::under(dir.path()), 0, 0.2, 3.0);
  calm.join();
  EXPECT_FALSE(r.gave_up);
  EXPECT_GE(r.waited_s, 0.5);
  EXPECT_LT(r.waited_s, 1.0);
}

TEST(WaitUntilQuiet, StopFlagEndsTheWait) {
  schedrig::testing::TempDir dir;
  FakeProc fake(dir.path(), {.pus = 2});
  fake.step(running(6));
  std::atomic<bool> stop{true};
  const QuietResult r = wait_until_quiet(procfs::Root::under(dir.path()), 0, 1, 10, &stop);
  EXPECT_TRUE(r.gave_up);
  EXPECT_LT(r.waited_s, 0.2);
}

TEST(WaitUntilQuiet, MissingProcStatThrows) {
  schedrig::testing::TempDir dir;
  try {
    wait_until_quiet(procfs::Root::under(dir.path()), 0, 0.1, 0.1);
    FAIL() << "expected SamplerError";
  } catch (const SamplerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    EXPECT_EQ(e.errno_value(), ENOENT);
  }
}

// A file that is not /proc/stat never gives a reading: that is said as
// such, not reported as a busy box that made the check give up.
TEST(WaitUntilQuiet, UnparsableProcStatThrowsInsteadOfGivingUp) {
  schedrig::testing::TempDir dir;
  std::filesystem::create_directories(dir.file("proc"));
  std::ofstream(dir.file("proc/stat")) << "garbage\n";
  try {
    wait_until_quiet(procfs::Root::under(dir.path()), 1, 0.1, 0.3);
    FAIL() << "expected SamplerError";
  } catch (const SamplerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kFailed);
    EXPECT_NE(std::string(e.what()).find("no procs_running line"), std::string::npos) << e.what();
  }
}

// /proc/stat a directory: the open refuses it, and the message says why.
TEST(WaitUntilQuiet, ADirectoryAsProcStatSaysEisdir) {
  schedrig::testing::TempDir dir;
  std::filesystem::create_directories(dir.file("proc/stat"));
  try {
    wait_until_quiet(procfs::Root::under(dir.path()), 0, 0.1, 0.1);
    FAIL() << "expected SamplerError";
  } catch (const SamplerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    EXPECT_EQ(e.errno_value(), EISDIR);
    EXPECT_NE(std::string(e.what()).find("EISDIR"), std::string::npos) << e.what();
  }
}

// /proc/stat over the 4 MiB bound: every read fails with EFBIG, and the
// give-up message keeps that reason.
TEST(WaitUntilQuiet, AnOversizedProcStatSaysEfbig) {
  schedrig::testing::TempDir dir;
  std::filesystem::create_directories(dir.file("proc"));
  std::ofstream(dir.file("proc/stat")) << "procs_running 1\n";
  std::filesystem::resize_file(dir.file("proc/stat"), (std::size_t{4} << 20) + 1);
  try {
    wait_until_quiet(procfs::Root::under(dir.path()), 0, 0.1, 0.1);
    FAIL() << "expected SamplerError";
  } catch (const SamplerError& e) {
    EXPECT_EQ(e.errno_value(), EFBIG);
    const std::string what = e.what();
    EXPECT_NE(what.find("no procs_running line"), std::string::npos) << what;
    EXPECT_NE(what.find("EFBIG"), std::string::npos) << what;
  }
}

// /proc/stat a FIFO in a fake tree: refused at once, never waited on.
TEST(WaitUntilQuiet, AFifoAsProcStatIsRefusedWithoutBlocking) {
  schedrig::testing::TempDir dir;
  std::filesystem::create_directories(dir.file("proc"));
  ASSERT_EQ(::mkfifo(dir.file("proc/stat").c_str(), 0600), 0);
  int err = 0;
  std::string what;
  ASSERT_TRUE(schedrig::testing::finishes_within(std::chrono::seconds(5), [&] {
    try {
      wait_until_quiet(procfs::Root::under(dir.path()), 0, 0.1, 0.1);
    } catch (const SamplerError& e) {
      err = e.errno_value();
      what = e.what();
    }
  })) << "a FIFO /proc/stat blocked";
  EXPECT_EQ(err, EINVAL);
  EXPECT_NE(what.find("not a regular file"), std::string::npos) << what;
}

}  // namespace
}  // namespace schedrig::sampler
