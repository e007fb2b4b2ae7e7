// Identity helpers: UUIDv4, is_uuid, boot_id.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "common/ids.h"
#include "common/procfs/read_error.h"

namespace schedrig {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "schedrig-ids-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(Ids, UuidV4HasVersionAndVariant) {
  for (int i = 0; i < 200; ++i) {
    std::string u = make_uuid_v4();
    ASSERT_EQ(u.size(), 36u) << u;
    EXPECT_TRUE(is_uuid(u)) << u;
    EXPECT_EQ(u[14], '4') << u;
    EXPECT_NE(std::string("89ab").find(u[19]), std::string::npos) << u;
    for (char c : u) {
      EXPECT_TRUE(c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << u;
    }
  }
}

TEST(Ids, UuidsAreDistinct) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(make_uuid_v4());
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(Ids, IsUuidAcceptsWellFormed) {
  EXPECT_TRUE(is_uuid("123e4567-e89b-42d3-a456-426614174000"));
  EXPECT_TRUE(is_uuid("00000000-0000-0000-0000-000000000000"));
  EXPECT_TRUE(is_uuid("ABCDEF01-2345-4789-ABCD-EF0123456789"));
}

TEST(Ids, IsUuidRejectsBadShapes) {
  for (const std::string bad : {
           "",
           "123e4567e89b42d3a456426614174000",        // no dashes
           "123e4567-e89b-42d3-a456-42661417400",     // 35 chars
           "123e4567-e89b-42d3-a456-4266141740000",   // 37 chars
           "123e4567-e89b-42d3-a456-42661417400g",    // non-hex
           "123e4567-e89b-42d3-a4560426614174000",    // dash replaced
           "123e4567-e89b-42d3a-456-426614174000",    // dash moved
           "{23e4567-e89b-42d3-a456-426614174000}",   // braces
           " 123e4567-e89b-42d3-a456-42661417400",    // leading blank
           "123e4567-e89b-42d3-a456-426614174000\n",  // trailing newline
           "------------------------------------",
       }) {
    EXPECT_FALSE(is_uuid(bad)) << "'" << bad << "'";
  }
}

TEST(Ids, BootIdOfLiveMachine) {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  if (!in) GTEST_SKIP() << "no /proc/sys/kernel/random/boot_id here";
  std::string want;
  std::getline(in, want);
  std::string got = read_boot_id(procfs::Root::live());
  EXPECT_EQ(got, want);
  EXPECT_TRUE(is_uuid(got)) << got;
  EXPECT_EQ(read_boot_id(), got);
}

TEST(Ids, BootIdUnderFakeRoot) {
  TempDir root;
  fs::path dir = root.path() / "proc/sys/kernel/random";
  fs::create_directories(dir);
  const std::string id = "6f1c2e0a-95b3-4d7e-8a41-0c9d5e7f3b21";
  std::ofstream(dir / "boot_id") << id << "\n";
  EXPECT_EQ(read_boot_id(procfs::Root::under(root.path())), id);
}

TEST(Ids, BootIdWithoutTrailingNewline) {
  TempDir root;
  fs::path dir = root.path() / "proc/sys/kernel/random";
  fs::create_directories(dir);
  std::ofstream(dir / "boot_id") << "abc";
  EXPECT_EQ(read_boot_id(procfs::Root::under(root.path())), "abc");
}

TEST(Ids, BootIdMissingRootNamesPath) {
  TempDir root;
  const std::string missing = (root.path() / "nope").string();
  try {
    read_boot_id(procfs::Root::under(missing));
    FAIL() << "no error for a missing root";
  } catch (const procfs::ReadError& e) {
    EXPECT_EQ(e.errno_value(), ENOENT);
    EXPECT_EQ(e.path(), missing + "/proc/sys/kernel/random/boot_id");
    std::string what = e.what();
    EXPECT_NE(what.find(missing + "/proc/sys/kernel/random/boot_id"), std::string::npos) << what;
  }
}

TEST(Ids, BootIdEmptyFileThrows) {
  TempDir root;
  fs::path dir = root.path() / "proc/sys/kernel/random";
  fs::create_directories(dir);
  std::ofstream(dir / "boot_id").flush();
  EXPECT_THROW(read_boot_id(procfs::Root::under(root.path())), std::runtime_error);
}

TEST(Ids, HostFacts) {
  EXPECT_FALSE(host_name().empty());
  EXPECT_FALSE(kernel_release().empty());
  long long a = wall_clock_ns();
  long long b = wall_clock_ns();
  EXPECT_GT(a, 1'600'000'000'000'000'000LL);  // after Sep 2020
  EXPECT_LE(a, b);
}

}  // namespace
}  // namespace schedrig
