// common/auth/token.h: reading a client's token from a file or an fd, and
// what is refused (links, FIFOs, group/other modes, empty and oversize files).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "common/auth/token.h"
#include "common/error.h"
#include "tests/common/auth/private_files.h"
#include "tests/support/run_command.h"

namespace schedrig::auth {
namespace {

using testing::TempDir;
using testing::write_file;

// The message of the schedrig::Error(kUsage) that read_token_file(path) throws.
std::string refusal(const std::string& path) {
  try {
    read_token_file(path);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    return e.what();
  }
  ADD_FAILURE() << path << " was accepted";
  return "";
}

TEST(TokenFile, FirstLineTrimmed) {
  TempDir dir;
  const std::string f = dir.file("token");
  write_file(f, "  tok-1234 \r\nsecond line\n");
  EXPECT_EQ(read_token_file(f), "tok-1234");
  write_file(f, "abc", 0400);
  EXPECT_EQ(read_token_file(f), "abc");
  write_file(f, std::string(4095, 'x') + "\n");  // 4096 bytes: the limit
  EXPECT_EQ(read_token_file(f), std::string(4095, 'x'));
}

TEST(TokenFile, RefusesGroupOrOtherModes) {
  TempDir dir;
  const std::string f = dir.file("token");
  write_file(f, "tok\n", 0644);
  EXPECT_EQ(refusal(f),
            "token file " + f + ": mode 0644 gives group or others access; chmod 600 it");
  write_file(f, "tok\n", 0604);
  EXPECT_EQ(refusal(f),
            "token file " + f + ": mode 0604 gives group or others access; chmod 600 it");
  write_file(f, "tok\n", 0640);
  EXPECT_EQ(refusal(f),
            "token file " + f + ": mode 0640 gives group or others access; chmod 600 it");
}

// Needs root to give the file away (chown); skipped otherwise.
TEST(TokenFile, RefusesAFileAnotherUserOwns) {
  if (::geteuid() != 0) GTEST_SKIP() << "chown to another uid needs root";
  TempDir dir;
  const std::string f = dir.file("token");
  write_file(f, "tok\n");
  ASSERT_EQ(::chown(f.c_str(), 65534, 65534), 0);
  EXPECT_EQ(refusal(f),
            "token file " + f + ": owned by uid 65534, not by this user (uid 0) or root; chown it");
}

TEST(TokenFile, RefusesSymlinkFifoDirAndMissing) {
  TempDir dir;
  const std::string real = dir.file("real");
  write_file(real, "tok\n");
  const std::string link = dir.file("link");
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  EXPECT_EQ(refusal(link), "token file " + link + ": is a symbolic link (refused)");
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(refusal(fifo), "token file " + fifo + ": not a regular file (refused)");
  EXPECT_EQ(refusal(dir.path()), "token file " + dir.path() + ": not a regular file (refused)");
  EXPECT_EQ(refusal(dir.file("none")),
            "token file " + dir.file("none") + ": cannot open: No such file or directory");
}

TEST(TokenFile, RefusesEmptyAndOversize) {
  TempDir dir;
  const std::string f = dir.file("token");
  write_file(f, "");
  EXPECT_EQ(refusal(f), "token file " + f + ": empty (no token on its first line)");
  write_file(f, " \t\nsecond\n");
  EXPECT_EQ(refusal(f), "token file " + f + ": empty (no token on its first line)");
  write_file(f, std::string(4097, 'x'));
  EXPECT_EQ(refusal(f), "token file " + f + ": larger than 4096 bytes");
}

TEST(TokenFd, ReadsAPipeToEofAndLeavesItOpen) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  ASSERT_EQ(::write(p[1], "tok-from-lab\n", 13), 13);
  ::close(p[1]);
  EXPECT_EQ(read_token_fd(p[0]), "tok-from-lab");
  EXPECT_EQ(::fcntl(p[0], F_GETFD), 0);  // still open (no FD_CLOEXEC set by us either)
  ::close(p[0]);
}

TEST(TokenFd, WaitsOnANonBlockingPipe) {
  int p[2];
  ASSERT_EQ(::pipe2(p, O_NONBLOCK), 0);
  std::thread writer([w = p[1]] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_EQ(::write(w, "late", 4), 4);
    ::close(w);
  });
  EXPECT_EQ(read_token_fd(p[0]), "late");
  writer.join();
  ::close(p[0]);
}

TEST(TokenFd, RefusesOversizeAndEmpty) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  std::thread writer([w = p[1]] {
    const std::string big(5000, 'x');
    (void)!::write(w, big.data(), big.size());
    ::close(w);
  });
  try {
    read_token_fd(p[0]);
    ADD_FAILURE() << "accepted 5000 bytes";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "token fd " + std::to_string(p[0]) + ": larger than 4096 bytes");
  }
  writer.join();
  ::close(p[0]);
  ASSERT_EQ(::pipe(p), 0);
  ::close(p[1]);
  try {
    read_token_fd(p[0]);
    ADD_FAILURE() << "accepted an empty pipe";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "token fd " + std::to_string(p[0]) + ": empty (no token on its first line)");
  }
  ::close(p[0]);
}

}  // namespace
}  // namespace schedrig::auth
