// procfs::FileReader and the one-shot helpers: pread re-reads after the
// file changes, O_NOFOLLOW, the size bound, errno and path in errors.
#include "common/procfs/file_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "common/procfs/read_error.h"
#include "common/procfs/read_file.h"
#include "common/procfs/root.h"
#include "tests/support/run_command.h"
#include "tests/support/time_limit.h"

namespace schedrig::procfs {
namespace {

using schedrig::testing::TempDir;

// Rewrites `path` in place (same inode), as the kernel's files change under
// an open fd.
void rewrite(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

TEST(ProcfsFileReader, RereadsFromOffsetZeroAfterTheFileChanges) {
  TempDir dir;
  const std::string path = dir.file("stat");
  rewrite(path, "first reading\n");
  FileReader f(path);
  ASSERT_TRUE(f.ok()) << f.error();
  std::string_view text;
  ASSERT_TRUE(f.read(text));
  EXPECT_EQ(text, "first reading\n");
  ASSERT_TRUE(f.read(text));  // a second read sees the same text, not EOF
  EXPECT_EQ(text, "first reading\n");
  rewrite(path, "2nd\n");
  ASSERT_TRUE(f.read(text));
  EXPECT_EQ(text, "2nd\n");
  const std::string big(10000, 'x');  // grows past the first 4 KiB buffer
  rewrite(path, big);
  ASSERT_TRUE(f.read(text));
  EXPECT_EQ(text, big);
  EXPECT_EQ(f.error(), 0);
}

TEST(ProcfsFileReader, ReadsALiveProcFile) {
  FileReader f(Root::live().path("proc/self/stat"));
  ASSERT_TRUE(f.ok()) << f.error();
  const std::string_view text = f.read_or_throw();
  EXPECT_EQ(text.substr(0, text.find(' ')), std::to_string(::getpid()));
}

TEST(ProcfsFileReader, RefusesASymlinkedFile) {
  TempDir dir;
  rewrite(dir.file("real"), "secret\n");
  std::filesystem::create_symlink(dir.file("real"), dir.file("link"));
  FileReader f(dir.file("link"));
  EXPECT_FALSE(f.ok());
  EXPECT_EQ(f.error(), ELOOP);
  std::string_view text;
  EXPECT_FALSE(f.read(text));
  try {
    read_small_file(dir.file("link"));
    FAIL() << "a symlink was followed";
  } catch (const ReadError& e) {
    EXPECT_EQ(e.errno_value(), ELOOP);
    EXPECT_EQ(e.path(), dir.file("link"));
  }
  EXPECT_EQ(read_small_file(dir.file("real")), "secret\n");  // the target itself is fine
}

TEST(ProcfsFileReader, FileOverTheBoundFailsWithEfbig) {
  TempDir dir;
  const std::string path = dir.file("big");
  rewrite(path, std::string(100, 'a'));
  FileReader exact(path, 100);
  std::string_view text;
  ASSERT_TRUE(exact.read(text)) << exact.error();
  EXPECT_EQ(text.size(), 100u);

  FileReader small(path, 99);
  EXPECT_TRUE(small.ok());
  EXPECT_FALSE(small.read(text));
  EXPECT_EQ(small.error(), EFBIG);
  try {
    small.read_or_throw();
    FAIL() << "no error over the bound";
  } catch (const ReadError& e) {
    EXPECT_EQ(e.errno_value(), EFBIG);
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    EXPECT_NE(std::string(e.what()).find("larger than 99 bytes"), std::string::npos) << e.what();
  }

  // The bound also holds past the first 4 KiB buffer.
  rewrite(path, std::string(9000, 'b'));
  int err = 0;
  EXPECT_FALSE(try_read_small_file(path, &err, 8192));
  EXPECT_EQ(err, EFBIG);
  EXPECT_EQ(try_read_small_file(path, &err, 9000)->size(), 9000u);
  EXPECT_EQ(err, 0);
}

TEST(ProcfsFileReader, MissingFileCarriesErrnoAndPath) {
  TempDir dir;
  const std::string path = dir.file("nope");
  FileReader f(path);
  EXPECT_FALSE(f.ok());
  EXPECT_EQ(f.error(), ENOENT);
  EXPECT_EQ(f.path(), path);
  int err = 0;
  EXPECT_FALSE(try_read_small_file(path, &err));
  EXPECT_EQ(err, ENOENT);
  try {
    read_small_file(path);
    FAIL() << "no error for a missing file";
  } catch (const ReadError& e) {
    EXPECT_EQ(e.errno_value(), ENOENT);
    EXPECT_EQ(e.path(), path);
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("ENOENT"), std::string::npos) << what;
  }
}

TEST(ProcfsFileReader, ADirectoryCannotBeRead) {
  TempDir dir;
  int err = 0;
  EXPECT_FALSE(try_read_small_file(dir.path(), &err));
  EXPECT_EQ(err, EISDIR);
}

TEST(ProcfsFileReader, MovedFromAndDefaultReadersFailCleanly) {
  TempDir dir;
  rewrite(dir.file("f"), "x");
  FileReader a(dir.file("f"));
  FileReader b = std::move(a);
  std::string_view text;
  EXPECT_TRUE(b.read(text));
  EXPECT_EQ(text, "x");
  FileReader none;
  EXPECT_FALSE(none.ok());
  EXPECT_FALSE(none.read(text));
  EXPECT_EQ(none.error(), EBADF);
  EXPECT_THROW(none.read_or_throw(), ReadError);
}

TEST(ProcfsFileReader, OpenFdIsCloseOnExec) {
  TempDir dir;
  rewrite(dir.file("f"), "x");
  // The reader's fd is the lowest free one after this probe's.
  const int probe = ::open(dir.file("f").c_str(), O_RDONLY);
  ASSERT_GE(probe, 0);
  ::close(probe);
  FileReader f(dir.file("f"));
  ASSERT_TRUE(f.ok());
  const int flags = ::fcntl(probe, F_GETFD);
  ASSERT_GE(flags, 0);
  EXPECT_TRUE(flags & FD_CLOEXEC);
}

TEST(ProcfsReadFile, FirstLine) {
  EXPECT_EQ(first_line("abc\ndef\n"), "abc");
  EXPECT_EQ(first_line("abc"), "abc");
  EXPECT_EQ(first_line("\nabc"), "");
  EXPECT_EQ(first_line(""), "");
}

// A FIFO planted in a fake tree: opened non-blocking and refused at once as
// not a regular file (EINVAL), not waited on for a writer that never comes.
TEST(ProcfsFileReader, AFifoIsRefusedWithoutBlocking) {
  TempDir dir;
  const std::string path = dir.file("fifo");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  int err = 0;
  bool read_ok = true;
  ASSERT_TRUE(schedrig::testing::finishes_within(std::chrono::seconds(5), [&] {
    read_ok = try_read_small_file(path, &err).has_value();
  })) << "opening a FIFO blocked";
  EXPECT_FALSE(read_ok);
  EXPECT_EQ(err, EINVAL);
  std::string what;
  ASSERT_TRUE(schedrig::testing::finishes_within(std::chrono::seconds(5), [&] {
    try {
      read_small_file(path);
    } catch (const ReadError& e) {
      EXPECT_EQ(e.errno_value(), EINVAL);
      what = e.what();
    }
  }));
  EXPECT_NE(what.find(path), std::string::npos) << what;
  EXPECT_NE(what.find("not a regular file"), std::string::npos) << what;
  EXPECT_NE(what.find("EINVAL"), std::string::npos) << what;
}

TEST(ProcfsFileReader, ACharacterDeviceIsRefused) {
  FileReader f("/dev/null");
  EXPECT_FALSE(f.ok());
  EXPECT_EQ(f.error(), EINVAL);
  EXPECT_EQ(f.error_text(), "not a regular file: Invalid argument (EINVAL)");
}

}  // namespace
}  // namespace schedrig::procfs
